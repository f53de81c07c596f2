package gateway

import (
	"net/http"

	"github.com/opencollab/backend/gateway/internal/httpfield"
	"github.com/opencollab/backend/pkg/internalauth"
)

// clientFields are the client's header fields as the gateway reads them.
// On h1 (h1.Server.ListFields) they are the list its parser made, in the
// client's order, and r.Header is empty: a scan of a request's ~5-15
// fields costs less than building and reading a map. On net/http, or for
// a head net/http's parser read, they are r.Header.
type clientFields struct {
	list   []httpfield.Field
	listed bool
	h      http.Header // r.Header
}

// fieldLister is an inbound writer that lists the request's header fields
// (h1's).
type fieldLister interface {
	RequestFields() ([]httpfield.Field, bool)
}

func newClientFields(w http.ResponseWriter, r *http.Request) clientFields {
	if l, ok := w.(fieldLister); ok {
		if list, ok := l.RequestFields(); ok {
			return clientFields{list: list, listed: true, h: r.Header}
		}
	}
	return clientFields{h: r.Header}
}

// first returns the first value of the canonical name and how many
// values it has.
func (f *clientFields) first(name string) (string, int) {
	if !f.listed {
		if vv := f.h[name]; len(vv) > 0 {
			return vv[0], len(vv)
		}
		return "", 0
	}
	v, n := "", 0
	for i := range f.list {
		if f.list[i].Name == name {
			if n == 0 {
				v = f.list[i].Value
			}
			n++
		}
	}
	return v, n
}

// get is the first value of name, "" when absent.
func (f *clientFields) get(name string) string {
	v, _ := f.first(name)
	return v
}

// values returns every value of name (a new slice when listed).
func (f *clientFields) values(name string) []string {
	if !f.listed {
		return f.h[name]
	}
	var vv []string
	for i := range f.list {
		if f.list[i].Name == name {
			vv = append(vv, f.list[i].Value)
		}
	}
	return vv
}

// fillHeader puts the listed fields into r.Header for code that reads
// the map (realtime upgrades), with id as the request id.
func (f *clientFields) fillHeader(id string) {
	if !f.listed {
		return
	}
	for _, fd := range f.list {
		if fd.Name != internalauth.HeaderRequestID {
			f.h[fd.Name] = append(f.h[fd.Name], fd.Value)
		}
	}
	f.h[internalauth.HeaderRequestID] = []string{id}
	f.listed = false
}
