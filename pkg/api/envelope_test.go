package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestHTTPStatusTable(t *testing.T) {
	want := map[Status]int{
		InvalidArgument: 400, FailedPrecondition: 400, PermissionDenied: 403, NotFound: 404,
		AlreadyExists: 409, ResourceExhausted: 429, Internal: 500, Unavailable: 503, "BOGUS": 500,
	}
	for s, code := range want {
		if got := HTTPStatus(s); got != code {
			t.Errorf("HTTPStatus(%s) = %d, want %d", s, got, code)
		}
	}
}

func serve(t *testing.T, e *gin.Engine, method, path string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	e.ServeHTTP(w, httptest.NewRequest(method, path, nil))
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("%s %s: body %q is not JSON: %v", method, path, w.Body.String(), err)
	}
	return w.Code, body
}

func TestEngineEnvelopes(t *testing.T) {
	e := NewEngine(nil)
	e.POST("/ok", Handle(func(c *gin.Context) (*Result, error) {
		return OK("done", map[string]int{"n": 1}).With("nextPageToken", "t"), nil
	}))
	e.POST("/nodata", Handle(func(c *gin.Context) (*Result, error) { return Done("removed"), nil }))
	e.POST("/bare", Handle(func(c *gin.Context) (*Result, error) {
		return (&Result{Bare: true}).With("results", []int{}), nil
	}))
	e.POST("/fail", Handle(func(c *gin.Context) (*Result, error) {
		return nil, Errorf(AlreadyExists, "editor %q has data", "e1").WithDetails(map[string]string{"id": "e1"})
	}))
	e.POST("/boom", Handle(func(c *gin.Context) (*Result, error) { return nil, errors.New("db password is hunter2") }))
	e.POST("/panic", Handle(func(c *gin.Context) (*Result, error) { panic("oops") }))

	code, body := serve(t, e, http.MethodPost, "/ok")
	res := body["result"].(map[string]any)
	if code != 200 || res["status"] != "success" || res["message"] != "done" || res["nextPageToken"] != "t" || res["data"].(map[string]any)["n"] != 1.0 {
		t.Fatalf("ok: %d %v", code, body)
	}
	_, body = serve(t, e, http.MethodPost, "/nodata")
	if _, has := body["result"].(map[string]any)["data"]; has {
		t.Fatalf("nodata has data: %v", body)
	}
	_, body = serve(t, e, http.MethodPost, "/bare")
	if res := body["result"].(map[string]any); res["status"] != nil || res["results"] == nil {
		t.Fatalf("bare: %v", body)
	}

	cases := []struct {
		method, path string
		code         int
		status       string
	}{
		{http.MethodPost, "/fail", 409, "ALREADY_EXISTS"},
		{http.MethodPost, "/boom", 500, "INTERNAL"},
		{http.MethodPost, "/panic", 500, "INTERNAL"},
		{http.MethodPost, "/nowhere", 404, "NOT_FOUND"},
		{http.MethodPost, "/ok/", 404, "NOT_FOUND"}, // no bare 307 outside the envelope
		{http.MethodGet, "/ok", 400, "INVALID_ARGUMENT"},
		{http.MethodDelete, "/ok", 400, "INVALID_ARGUMENT"},
	}
	for _, c := range cases {
		code, body := serve(t, e, c.method, c.path)
		errObj, _ := body["error"].(map[string]any)
		if code != c.code || errObj["status"] != c.status || errObj["message"] == "" {
			t.Errorf("%s %s: %d %v, want %d %s", c.method, c.path, code, body, c.code, c.status)
		}
		if c.path == "/ok/" && !strings.Contains(errObj["message"].(string), "trailing slash: /ok") {
			t.Errorf("trailing slash message: %v", errObj["message"])
		}
		if c.path == "/boom" && errObj["message"] != "internal error" {
			t.Errorf("internal error leaked: %v", errObj["message"])
		}
	}
}

func TestEnvelopeKeepsHTMLLiteral(t *testing.T) {
	w := httptest.NewRecorder()
	WriteJSON(w, 200, OK("a <b> & c", map[string]string{"html": "<p>x & y</p>"}))
	if want := `"html":"<p>x & y</p>"`; !strings.Contains(w.Body.String(), want) {
		t.Fatalf("body %s does not contain %s", w.Body.String(), want)
	}
	if b := ErrorEnvelope(Errorf(InvalidArgument, "field <x>")); !strings.Contains(string(b), "field <x>") {
		t.Fatalf("error envelope escaped HTML: %s", b)
	}
}
