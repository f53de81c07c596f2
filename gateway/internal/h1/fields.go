package h1

import (
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// The pieces of an answer's head, written as net/http writes them.

func appendStatus(b []byte, code int, http10 bool) []byte {
	if http10 {
		b = append(b, "HTTP/1.0 "...)
	} else {
		b = append(b, "HTTP/1.1 "...)
	}
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, ' ')
	if text := http.StatusText(code); text != "" {
		return append(append(b, text...), "\r\n"...)
	}
	b = append(b, "status code "...)
	b = strconv.AppendInt(b, int64(code), 10)
	return append(b, "\r\n"...)
}

// appendFields writes the handler's header, with net/http's sanitising:
// invalid names are dropped, CR and LF in values become spaces.
func appendFields(b []byte, h http.Header) []byte {
	for k, vv := range h {
		if !validFieldName(k) {
			continue
		}
		for _, v := range vv {
			b = appendField(b, k, v)
		}
	}
	return b
}

func appendField(b []byte, k, v string) []byte {
	b = append(b, k...)
	b = append(b, ": "...)
	v = strings.TrimSpace(v)
	start := len(b)
	b = append(b, v...)
	for i := start; i < len(b); i++ {
		if b[i] == '\r' || b[i] == '\n' {
			b[i] = ' '
		}
	}
	return append(b, "\r\n"...)
}

func validFieldName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

func hasToken(vv []string, tok string) bool {
	for _, v := range vv {
		for v != "" {
			var t string
			t, v, _ = strings.Cut(v, ",")
			if strings.EqualFold(strings.TrimSpace(t), tok) {
				return true
			}
		}
	}
	return false
}

// httpDate is the Date header value, formatted once a second.
type dateCache struct {
	unix int64
	text string
}

var cachedDate atomic.Pointer[dateCache]

func httpDate() string {
	now := time.Now()
	if d := cachedDate.Load(); d != nil && d.unix == now.Unix() {
		return d.text
	}
	d := &dateCache{unix: now.Unix(), text: now.UTC().Format(http.TimeFormat)}
	cachedDate.Store(d)
	return d.text
}
