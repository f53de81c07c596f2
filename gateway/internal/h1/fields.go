package h1

import (
	"net/http"
	"strconv"
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
