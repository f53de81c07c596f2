package analysis

import "strings"

// Stem reduces an English word (lowercase) to its Porter2 ("English
// Snowball") stem, so "cited", "citation" and "citations" meet at "cite" /
// "citat". The algorithm follows snowballstem.org/algorithms/english;
// words of one or two letters are returned as they are.
func Stem(word string) string {
	if len(word) <= 2 || !isASCIILower(word) {
		return word
	}
	if s, ok := stemExceptions[word]; ok {
		return s
	}
	w := []byte(strings.TrimPrefix(word, "'"))
	markY(w)
	r1, r2 := regions(w)
	w = step0(w)
	w = step1a(w)
	if s, ok := step1aExceptions[string(w)]; ok {
		return s
	}
	w = step1b(w, r1)
	w = step1c(w)
	w = step2(w, r1)
	w = step3(w, r1, r2)
	w = step4(w, r2)
	w = step5(w, r1, r2)
	for i, c := range w {
		if c == 'Y' {
			w[i] = 'y'
		}
	}
	return string(w)
}

func isASCIILower(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && c != '\'' {
			return false
		}
	}
	return true
}

var stemExceptions = map[string]string{
	"skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "idly": "idl",
	"gently": "gentl", "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl",
	"sky": "sky", "news": "news", "howe": "howe", "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes",
}

var step1aExceptions = map[string]string{
	"inning": "inning", "outing": "outing", "canning": "canning", "herring": "herring", "earring": "earring",
	"proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u', 'y':
		return true
	}
	return false
}

// markY turns an initial y, and a y after a vowel, into Y (a consonant).
func markY(w []byte) {
	for i, c := range w {
		if c == 'y' && (i == 0 || isVowel(w[i-1])) {
			w[i] = 'Y'
		}
	}
}

// regions returns the starts of R1 and R2.
func regions(w []byte) (int, int) {
	r1 := len(w)
	for _, p := range []string{"gener", "commun", "arsen"} {
		if strings.HasPrefix(string(w), p) {
			r1 = len(p)
			break
		}
	}
	if r1 == len(w) {
		r1 = regionAfter(w, 0)
	}
	return r1, regionAfter(w, r1)
}

// regionAfter is the position after the first non-vowel that follows a
// vowel, searching from start.
func regionAfter(w []byte, start int) int {
	for i := start + 1; i < len(w); i++ {
		if !isVowel(w[i]) && isVowel(w[i-1]) {
			return i + 1
		}
	}
	return len(w)
}

func hasSuffix(w []byte, s string) bool { return strings.HasSuffix(string(w), s) }

// longest returns the longest of suffixes that w ends with ("" if none).
func longest(w []byte, suffixes []string) string {
	best := ""
	for _, s := range suffixes {
		if len(s) > len(best) && hasSuffix(w, s) {
			best = s
		}
	}
	return best
}

func containsVowel(w []byte) bool {
	for _, c := range w {
		if isVowel(c) {
			return true
		}
	}
	return false
}

// shortSyllableAt reports whether w ends in a short syllable: a non-vowel
// other than w, x, Y after a vowel after a non-vowel, or a vowel at the
// start followed by a non-vowel.
func endsShortSyllable(w []byte) bool {
	n := len(w)
	if n == 2 {
		return isVowel(w[0]) && !isVowel(w[1])
	}
	if n < 3 {
		return false
	}
	c := w[n-1]
	return !isVowel(c) && c != 'w' && c != 'x' && c != 'Y' && isVowel(w[n-2]) && !isVowel(w[n-3])
}

func isShort(w []byte, r1 int) bool { return r1 >= len(w) && endsShortSyllable(w) }

func step0(w []byte) []byte {
	if s := longest(w, []string{"'s'", "'s", "'"}); s != "" {
		return w[:len(w)-len(s)]
	}
	return w
}

func step1a(w []byte) []byte {
	switch s := longest(w, []string{"sses", "ied", "ies", "us", "ss", "s"}); s {
	case "sses":
		return w[:len(w)-2]
	case "ied", "ies":
		if len(w) > 4 {
			return append(w[:len(w)-3], 'i')
		}
		return append(w[:len(w)-3], 'i', 'e')
	case "s":
		// Delete if the part before the s holds a vowel not right before it.
		if len(w) >= 3 && containsVowel(w[:len(w)-2]) {
			return w[:len(w)-1]
		}
	}
	return w
}

func step1b(w []byte, r1 int) []byte {
	s := longest(w, []string{"eed", "eedly", "ed", "edly", "ing", "ingly"})
	switch s {
	case "":
		return w
	case "eed", "eedly":
		if len(w)-len(s) >= r1 {
			return append(w[:len(w)-len(s)], 'e', 'e')
		}
		return w
	}
	stem := w[:len(w)-len(s)]
	if !containsVowel(stem) {
		return w
	}
	switch {
	case hasSuffix(stem, "at"), hasSuffix(stem, "bl"), hasSuffix(stem, "iz"):
		return append(stem, 'e')
	case endsDouble(stem):
		return stem[:len(stem)-1]
	case isShort(stem, r1):
		return append(stem, 'e')
	}
	return stem
}

func endsDouble(w []byte) bool {
	n := len(w)
	if n < 2 || w[n-1] != w[n-2] {
		return false
	}
	return strings.IndexByte("bdfgmnprt", w[n-1]) >= 0
}

func step1c(w []byte) []byte {
	n := len(w)
	if n > 2 && (w[n-1] == 'y' || w[n-1] == 'Y') && !isVowel(w[n-2]) {
		w[n-1] = 'i'
	}
	return w
}

var step2Suffixes = map[string]string{
	"tional": "tion", "enci": "ence", "anci": "ance", "abli": "able", "entli": "ent", "izer": "ize",
	"ization": "ize", "ational": "ate", "ation": "ate", "ator": "ate", "alism": "al", "aliti": "al",
	"alli": "al", "fulness": "ful", "ousli": "ous", "ousness": "ous", "iveness": "ive", "iviti": "ive",
	"biliti": "ble", "bli": "ble", "ogi": "og", "fulli": "ful", "lessli": "less", "li": "",
}

var step2List = keysOf(step2Suffixes)

func step2(w []byte, r1 int) []byte {
	s := longest(w, step2List)
	if s == "" || len(w)-len(s) < r1 {
		return w
	}
	stem := w[:len(w)-len(s)]
	switch s {
	case "ogi":
		if !hasSuffix(stem, "l") {
			return w
		}
	case "li":
		if len(stem) == 0 || strings.IndexByte("cdeghkmnrt", stem[len(stem)-1]) < 0 {
			return w
		}
	}
	return append(stem, step2Suffixes[s]...)
}

var step3Suffixes = map[string]string{
	"tional": "tion", "ational": "ate", "alize": "al", "icate": "ic", "iciti": "ic", "ical": "ic",
	"ful": "", "ness": "", "ative": "",
}

var step3List = keysOf(step3Suffixes)

func step3(w []byte, r1, r2 int) []byte {
	s := longest(w, step3List)
	if s == "" || len(w)-len(s) < r1 || (s == "ative" && len(w)-len(s) < r2) {
		return w
	}
	return append(w[:len(w)-len(s)], step3Suffixes[s]...)
}

var step4List = []string{"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
	"ism", "ate", "iti", "ous", "ive", "ize", "ion"}

func step4(w []byte, r2 int) []byte {
	s := longest(w, step4List)
	if s == "" || len(w)-len(s) < r2 {
		return w
	}
	stem := w[:len(w)-len(s)]
	if s == "ion" && !hasSuffix(stem, "s") && !hasSuffix(stem, "t") {
		return w
	}
	return stem
}

func step5(w []byte, r1, r2 int) []byte {
	n := len(w)
	switch {
	case n > 0 && w[n-1] == 'e':
		stem := w[:n-1]
		if n-1 >= r2 || (n-1 >= r1 && !endsShortSyllable(stem)) {
			return stem
		}
	case n > 1 && w[n-1] == 'l' && w[n-2] == 'l' && n-1 >= r2:
		return w[:n-1]
	}
	return w
}

func keysOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
