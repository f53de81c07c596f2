package gateway

import (
	"net/http"

	"github.com/opencollab/backend/gateway/openapi"
	"github.com/opencollab/backend/pkg/api"
)

// describe serves the OpenAPI document (/openapi.json) or the reference
// page built from it (/docs). Both are public: they describe the API and
// hold no workspace data. Method handling matches the probes'.
func describe(w http.ResponseWriter, r *http.Request, contentType string, body func() []byte) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		api.WriteError(r.Context(), w, api.Errorf(api.InvalidArgument, "method %s is not allowed; use GET", r.Method))
		return
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "public, max-age=300")
	// The page runs only its own inline script and style.
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body())
}

var (
	serveOpenAPI = func(w http.ResponseWriter, r *http.Request) {
		describe(w, r, "application/json", openapi.Document)
	}
	serveDocs = func(w http.ResponseWriter, r *http.Request) {
		describe(w, r, "text/html; charset=utf-8", openapi.DocsPage)
	}
)
