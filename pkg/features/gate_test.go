package features

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

// offFor is a gate with f off for one workspace.
type offFor struct {
	workspace string
	asked     []string
}

func (g *offFor) Require(_ context.Context, ws string, f Name) error {
	g.asked = append(g.asked, ws+"/"+string(f))
	if ws == g.workspace {
		return api.Errorf(api.FailedPrecondition, "%s off", f)
	}
	return nil
}

func TestMiddlewareGatesByTheSignedWorkspace(t *testing.T) {
	t.Parallel()
	var nilChecker *Checker
	for _, tc := range []struct {
		name      string
		gate      Gate
		workspace string
		wantCode  int
	}{
		{"feature off", &offFor{workspace: "w1"}, "w1", http.StatusBadRequest},
		{"feature on", &offFor{workspace: "w1"}, "w2", http.StatusOK},
		{"nil gate", nil, "w1", http.StatusOK},
		{"nil checker", nilChecker, "w1", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reached := false
			e := gin.New()
			e.POST("/op", func(c *gin.Context) {
				ctx := internalauth.WithPrincipal(c.Request.Context(), internalauth.Workspace(tc.workspace))
				c.Request = c.Request.WithContext(ctx)
			}, Middleware(tc.gate, AdvancedQueries), func(c *gin.Context) { reached = true; c.Status(http.StatusOK) })
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/op", nil))
			if rec.Code != tc.wantCode || reached != (tc.wantCode == http.StatusOK) {
				t.Fatalf("HTTP %d, handler reached %v; want %d: %s", rec.Code, reached, tc.wantCode, rec.Body)
			}
			if g, ok := tc.gate.(*offFor); ok && (len(g.asked) != 1 || g.asked[0] != tc.workspace+"/advancedQueries") {
				t.Fatalf("gate asked %v", g.asked)
			}
		})
	}
}
