package signing

import (
	"strconv"
	"unicode/utf8"
)

// Permission is one permission decision of a customer's permission provider,
// the input of /v2/auth/generate_signature.
type Permission struct {
	UserID     string `json:"userId" validate:"required"`
	ResourceID string `json:"resourceId" validate:"required"`
	Type       string `json:"type" validate:"required,oneof=document folder organization"`
	HasAccess  *bool  `json:"hasAccess" validate:"required"`
	AccessRole string `json:"accessRole,omitempty" validate:"oneof=viewer editor"`
	ExpiresAt  *int64 `json:"expiresAt,omitempty"`
}

// Canonical returns the canonical form of perms described in the package
// documentation. The bytes are written field by field, so key order does not
// depend on reflection or map iteration. A nil HasAccess, which validation
// rejects before signing, is written as false.
func Canonical(perms []Permission) []byte {
	b := make([]byte, 0, 128*len(perms)+2)
	b = append(b, '[')
	for i, p := range perms {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPermission(b, p)
	}
	return append(b, ']')
}

// appendPermission writes one object with its keys in lexicographic order:
// accessRole, expiresAt, hasAccess, resourceId, type, userId.
func appendPermission(b []byte, p Permission) []byte {
	b = append(b, '{')
	if p.AccessRole != "" {
		b = append(b, `"accessRole":`...)
		b = appendString(b, p.AccessRole)
		b = append(b, ',')
	}
	if p.ExpiresAt != nil {
		b = append(b, `"expiresAt":`...)
		b = strconv.AppendInt(b, *p.ExpiresAt, 10)
		b = append(b, ',')
	}
	b = append(b, `"hasAccess":`...)
	b = strconv.AppendBool(b, p.HasAccess != nil && *p.HasAccess)
	b = append(b, `,"resourceId":`...)
	b = appendString(b, p.ResourceID)
	b = append(b, `,"type":`...)
	b = appendString(b, p.Type)
	b = append(b, `,"userId":`...)
	b = appendString(b, p.UserID)
	return append(b, '}')
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string the way encoding/json does with
// SetEscapeHTML(false). It is spelled out here rather than delegated so the
// documented canonical form cannot change with a Go release; a test compares
// it with encoding/json.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // s[start:i] is pending literal output
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = appendASCIIEscape(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		// U+2028 and U+2029 are valid JSON but break JavaScript source
		// (JSONP); encoding/json escapes them regardless of HTML escaping.
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendASCIIEscape writes the escape of a quote, backslash or control byte.
func appendASCIIEscape(b []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(b, '\\', c)
	case '\b':
		return append(b, `\b`...)
	case '\f':
		return append(b, `\f`...)
	case '\n':
		return append(b, `\n`...)
	case '\r':
		return append(b, `\r`...)
	case '\t':
		return append(b, `\t`...)
	default:
		return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
	}
}
