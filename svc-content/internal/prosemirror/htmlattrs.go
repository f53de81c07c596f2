package prosemirror

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// Reading attribute values as the DOM and TipTap's parse rules read them.

// parseInt is JavaScript's parseInt(s, 10); NaN when s has no digits.
func parseInt(s string) float64 {
	s = strings.TrimLeftFunc(s, isJSSpace)
	sign := 1.0
	if s != "" && (s[0] == '+' || s[0] == '-') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return math.NaN()
	}
	n, _ := strconv.ParseFloat(s[:end], 64)
	return sign * n
}

var numberString = regexp.MustCompile(`^[+-]?(?:\d*\.)?\d+$`)

// fromString is TipTap's conversion of an HTML attribute value: numbers
// and booleans become typed.
func fromString(v string) any {
	switch {
	case numberString.MatchString(v):
		f, _ := strconv.ParseFloat(v, 64)
		return f
	case v == "true":
		return true
	case v == "false":
		return false
	}
	return v
}

// attrValue is an extension attribute without parseHTML: the element's
// attribute through fromString, absent when the element has none.
func attrValue(el *html.Node, name string) (any, bool) {
	v, ok := attrLookup(el, name)
	if !ok {
		return nil, false
	}
	return fromString(v), true
}

func attrLookup(el *html.Node, name string) (string, bool) {
	for _, a := range el.Attr {
		if a.Namespace == "" && a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

func attr(el *html.Node, name string) string {
	v, _ := attrLookup(el, name)
	return v
}

// classList splits a class attribute as DOMTokenList does: on ASCII
// whitespace, without duplicates.
func classList(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\n\f\r", r) }) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

func firstDescendant(n *html.Node, tag string) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == tag && c.Namespace == "" {
			return c
		}
		if d := firstDescendant(c, tag); d != nil {
			return d
		}
	}
	return nil
}

// allowedURI is the Link extension's isAllowedUri with no extra protocols:
// the default protocols, or a relative reference.
var allowedURIRe = regexp.MustCompile(`(?i)^(?:(?:http|https|ftp|ftps|mailto|tel|callto|sms|cid|xmpp):|[^a-z]|[a-z0-9+.\-]+(?:[^a-z+.\-:]|$))`)

var uriSpace = regexp.MustCompile("[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]")

func allowedURI(uri string) bool {
	return uri == "" || allowedURIRe.MatchString(uriSpace.ReplaceAllString(uri, ""))
}

// isJSSpace is JavaScript's \s.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}
