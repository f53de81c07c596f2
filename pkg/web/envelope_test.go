package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
)

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
	e.POST("/ok", Handle(func(c *gin.Context) (*api.Result, error) {
		return api.OK("done", map[string]int{"n": 1}).With("nextPageToken", "t"), nil
	}))
	e.POST("/nodata", Handle(func(c *gin.Context) (*api.Result, error) { return api.Done("removed"), nil }))
	e.POST("/bare", Handle(func(c *gin.Context) (*api.Result, error) {
		return (&api.Result{Bare: true}).With("results", []int{}), nil
	}))
	e.POST("/fail", Handle(func(c *gin.Context) (*api.Result, error) {
		return nil, api.Errorf(api.AlreadyExists, "editor %q has data", "e1").WithDetails(map[string]string{"id": "e1"})
	}))
	e.POST("/boom", Handle(func(c *gin.Context) (*api.Result, error) { return nil, errors.New("db password is hunter2") }))
	e.POST("/panic", Handle(func(c *gin.Context) (*api.Result, error) { panic("oops") }))

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
