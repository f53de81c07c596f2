// Package httpfield writes and reads HTTP/1.1 header fields the way
// net/http does. The gateway's inbound server (internal/h1) and its
// upstream hop share it, so a field leaves the gateway in the same form
// whichever side writes it.
package httpfield

import (
	"net/http"
	"net/textproto"
	"strings"
)

// Append writes "k: v\r\n" with http.Header.Write's sanitising: the value
// is trimmed of ASCII white space and a CR or LF inside it becomes a space,
// so no value can end the head early.
func Append(b []byte, k, v string) []byte {
	b = append(b, k...)
	b = append(b, ": "...)
	v = textproto.TrimString(v)
	start := len(b)
	b = append(b, v...)
	// Values almost never hold a CR or LF: two vectorised searches are
	// cheaper than looking at each byte.
	if strings.IndexByte(v, '\r') >= 0 || strings.IndexByte(v, '\n') >= 0 {
		for i := start; i < len(b); i++ {
			if b[i] == '\r' || b[i] == '\n' {
				b[i] = ' '
			}
		}
	}
	return append(b, "\r\n"...)
}

// AppendPlain is Append for a value already in the form Append writes:
// no CR or LF, nothing to trim (the values h1's fast parser lists, request
// ids the gateway accepted or made). It skips Append's searches.
func AppendPlain(b []byte, k, v string) []byte {
	b = append(b, k...)
	b = append(b, ": "...)
	b = append(b, v...)
	return append(b, "\r\n"...)
}

// AppendValid writes every field of h whose name is valid (http.Server
// drops the others).
func AppendValid(b []byte, h http.Header) []byte {
	for k, vv := range h {
		if !ValidName(k) {
			continue
		}
		for _, v := range vv {
			b = Append(b, k, v)
		}
	}
	return b
}

// ValidName reports whether k is a token (RFC 9110 §5.1).
func ValidName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !tokenByte[k[i]] {
			return false
		}
	}
	return true
}

// tokenByte marks the bytes a token may hold: visible ASCII but the
// delimiters.
var tokenByte = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune("\"(),/:;<=>?@[\\]{}", c)
	}
	return t
}()

// HasToken reports whether the comma-separated values vv list tok, case
// insensitively (Connection: keep-alive, Upgrade; Upgrade: websocket).
func HasToken(vv []string, tok string) bool {
	for _, v := range vv {
		for v != "" {
			var t string
			t, v, _ = strings.Cut(v, ",")
			if strings.EqualFold(textproto.TrimString(t), tok) {
				return true
			}
		}
	}
	return false
}

// IsCanonical reports whether k is letters, digits and hyphens in
// textproto's canonical form ("Content-Type"), so canonicalising it would
// return it unchanged: a scan is cheaper than a lookup.
// It walks canonicalNext: a lookup per byte instead of a chain of range
// tests.
func IsCanonical(k string) bool {
	s := wordStart
	for i := 0; i < len(k); i++ {
		s = canonicalNext[s&3][k[i]]
		if s == notCanonical {
			return false
		}
	}
	return k != ""
}

// States of IsCanonical's scan.
const (
	notCanonical uint8 = iota
	wordStart          // at the name's start or after a '-': a capital is due
	inWord             // after a letter or digit: lower case
)

// canonicalNext[s][c] is the state after byte c in state s.
var canonicalNext = func() (t [4][256]uint8) {
	for c := range 256 {
		switch {
		case 'A' <= c && c <= 'Z':
			t[wordStart][c] = inWord
		case 'a' <= c && c <= 'z':
			t[inWord][c] = inWord
		case '0' <= c && c <= '9':
			t[wordStart][c], t[inWord][c] = inWord, inWord
		case c == '-':
			t[wordStart][c], t[inWord][c] = wordStart, wordStart
		}
	}
	return t
}()

// Field is one header field of a request: its canonical name and its
// value trimmed of blanks, as they are in net/http's header map.
type Field struct {
	Name, Value string
}
