package internalauth

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
)

// Each Require* gate lets through its own principal kind only; a realtime
// upgrade in particular opens no workspace or service route.
func TestRequireGates(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	signer := NewSigner("middleware-test-secret")
	gates := map[string]gin.HandlerFunc{
		"workspace": RequireWorkspace(), "operator": RequireOperator(),
		"service": RequireService(), "realtime": RequireRealtimeUpgrade(),
	}
	principals := map[string]string{
		"workspace": Workspace("ws1"), "operator": Operator,
		"service": Service("gateway"), "realtime": RealtimeUpgrade,
	}
	for gate, require := range gates {
		e := gin.New()
		e.POST("/x", signer.Authenticate(), require, func(c *gin.Context) { c.Status(http.StatusOK) })
		for kind, p := range principals {
			req := httptest.NewRequest(http.MethodPost, "/x", nil)
			signer.Sign(req.Header, p)
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if want := gate == kind; (rec.Code == http.StatusOK) != want {
				t.Errorf("gate %s, principal %s: status %d", gate, kind, rec.Code)
			}
		}
	}
}
