package web

import (
	"slices"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestRoutesListsMethodAndTemplatePath(t *testing.T) {
	e := NewEngine(nil)
	noop := func(*gin.Context) {}
	e.POST("/v2/things/add", noop)
	e.GET("/v2/sync/:org/:doc", noop)
	got := Routes(e)
	for _, want := range []string{"POST /v2/things/add", "GET /v2/sync/{org}/{doc}", "GET /healthz"} {
		if !slices.Contains(got, want) {
			t.Errorf("Routes() = %v, lacks %q", got, want)
		}
	}
}
