package h1

import (
	"net/http"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

// RawHead is an answer head whose fields are already written out, for a
// proxy that would otherwise parse them into the header map only for
// sendHead to write them back: the fields go from the service's answer to
// the write buffer as bytes.
type RawHead struct {
	// Fields are complete "Name: value\r\n" lines, written after the
	// fields of Header(). Names must be valid tokens and values sanitised
	// (httpfield.Append writes both as the header map's path would); no
	// hop-by-hop fields.
	Fields []byte
	// ContentLength is the Content-Length among Fields, -1 when none.
	ContentLength int64
	// ContentType and Date report whether Fields hold those fields, so
	// that none is sniffed or added.
	ContentType, Date bool
}

// WriteHeaderRaw is WriteHeader for an answer whose fields come as bytes
// besides those of Header(). The fields are copied: the caller's buffer
// may be reused once it returns. It must not be used for 1xx answers.
func (w *response) WriteHeaderRaw(code int, h RawHead) {
	if w.wroteHeader || w.hijacked || code < 200 || code > 999 {
		w.WriteHeader(code)
		return
	}
	w.raw = append(w.raw[:0], h.Fields...)
	w.rawContentType, w.rawDate = h.ContentType, h.Date
	w.WriteHeader(code)
	if w.declared < 0 && h.ContentLength >= 0 {
		w.declared = h.ContentLength
	}
}

// hasField reports whether the head will carry the field k, from the
// header map or the raw fields.
func (w *response) hasField(k string) bool {
	if _, ok := w.header[k]; ok {
		return true
	}
	switch k {
	case "Content-Type":
		return w.rawContentType
	case "Date":
		return w.rawDate
	}
	return false
}

var _ interface{ WriteHeaderRaw(int, RawHead) } = (*response)(nil)
var _ http.ResponseWriter = (*response)(nil)

// RequestFields returns the request's header fields in the order the
// client sent them, exactly those of r.Header as the server parsed it
// (values trimmed of blanks, visible ASCII, spaces and tabs only), for
// a proxy writing them on without iterating the map (most requests). ok is
// false when the head took net/http's parser: then only r.Header has them.
// The slice is the connection's, valid until the handler returns; changes
// the handler makes to r.Header are not in it. With Server.ListFields,
// r.Header is empty when ok.
func (w *response) RequestFields() (fields []httpfield.Field, ok bool) {
	if !w.c.listed {
		return nil, false
	}
	return w.c.fields, true
}
