package prosemirror

import (
	"strconv"
	"strings"
)

// inlineStyle is the part of an element's style attribute that StarterKit's
// parse rules read (bold, italic, strike and underline from CSS, and
// white-space: pre), with values normalised as jsdom's CSSStyleDeclaration
// returns them: font-weight and font-style keywords lower-cased, invalid
// values dropped, the last declaration winning, "!important" removed. The
// "font" shorthand sets font-style and font-weight when it names them.
type inlineStyle struct {
	count                      int // number of valid declarations
	fontWeight, fontStyle      string
	textDecoration, whiteSpace string
}

func parseStyle(attr string) inlineStyle {
	var s inlineStyle
	for _, decl := range splitDeclarations(attr) {
		colon := strings.IndexByte(decl, ':')
		if colon < 0 {
			continue
		}
		prop := strings.ToLower(strings.TrimSpace(decl[:colon]))
		value := strings.TrimSpace(decl[colon+1:])
		if i := strings.LastIndex(strings.ToLower(value), "!important"); i >= 0 && strings.TrimSpace(value[i+len("!important"):]) == "" {
			value = strings.TrimSpace(value[:i])
		}
		if value == "" {
			continue
		}
		if s.set(prop, value) {
			s.count++
		}
	}
	return s
}

func (s *inlineStyle) set(prop, value string) bool {
	lower := strings.ToLower(value)
	switch prop {
	case "font-weight":
		if !validFontWeight(lower) {
			return false
		}
		s.fontWeight = lower
	case "font-style":
		if lower != "normal" && lower != "italic" && !strings.HasPrefix(lower, "oblique") {
			return false
		}
		s.fontStyle = lower
	case "font":
		for _, tok := range strings.Fields(lower) {
			switch {
			case tok == "italic" || tok == "oblique":
				s.fontStyle = tok
			case tok != "normal" && validFontWeight(tok):
				s.fontWeight = tok
			}
		}
	case "text-decoration":
		s.textDecoration = value
	case "white-space":
		s.whiteSpace = lower
	}
	return true
}

func validFontWeight(v string) bool {
	switch v {
	case "normal", "bold", "bolder", "lighter":
		return true
	}
	n, err := strconv.ParseFloat(v, 64)
	return err == nil && n >= 1 && n <= 1000
}

// property returns the value for a property a style rule names.
func (s inlineStyle) property(name string) string {
	switch name {
	case "font-weight":
		return s.fontWeight
	case "font-style":
		return s.fontStyle
	case "text-decoration":
		return s.textDecoration
	}
	return ""
}

// splitDeclarations splits a style attribute at semicolons outside quotes
// and parentheses.
func splitDeclarations(style string) []string {
	var out []string
	var quote rune
	depth, start := 0, 0
	for i, r := range style {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '"' || r == '\'':
			quote = r
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case r == ';' && depth == 0:
			out = append(out, style[start:i])
			start = i + 1
		}
	}
	return append(out, style[start:])
}
