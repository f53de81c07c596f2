// Left out of the fuzz build (scripts/test.sh fuzzes with -tags fuzzonly):
// these tests need pkg/testenv's stores, and `go test -fuzz` compiles every
// package of its test binary instrumented, the MongoDB driver and the
// embedded stores included, for a target that needs none of them.

//go:build !fuzzonly

package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-workspace/internal/delivery"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// attemptTargets knows endpoint ep_1 of ws_1 only.
type attemptTargets struct{}

func (attemptTargets) DeliveryTargets(context.Context, string, string) (webhook.Config, []webhook.DeliveryTarget, error) {
	return webhook.Config{}, nil, nil
}

func (attemptTargets) DeliveryTarget(_ context.Context, ws, id string) (webhook.Config, webhook.DeliveryTarget, error) {
	if ws != "ws_1" || id != "ep_1" {
		return webhook.Config{}, webhook.DeliveryTarget{}, webhook.ErrNotFound
	}
	return webhook.Config{IsEnabled: true}, webhook.DeliveryTarget{Endpoint: webhook.Endpoint{ID: id, WorkspaceID: ws}}, nil
}

func (attemptTargets) DisableEndpoint(context.Context, string, string, string) error { return nil }

// attemptsEngine serves the attempt routes for workspace ws; enabled says
// whether advanced webhooks are on. The store holds three attempts of ep_1
// (two finished, one in flight) written as the delivery writes them.
func attemptsEngine(t *testing.T, ws string, enabled bool) *gin.Engine {
	t.Helper()
	db := testenv.Mongo(t)
	ctx := context.Background()
	svc := delivery.NewService(db, attemptTargets{}, delivery.Options{})
	if err := svc.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for n := 1; n <= 3; n++ {
		id := "ev_1:ep_1:" + string(rune('0'+n))
		started := base.Add(time.Duration(n) * time.Second)
		if _, err := db.Collection("webhook_attempts").InsertOne(ctx, bson.M{
			"_id": id, "workspaceId": "ws_1", "endpointId": "ep_1", "messageId": "ev_1:ep_1",
			"eventType": "comment.add", "attempt": n, "startedAt": started, "leaseUntil": started.Add(time.Minute),
		}); err != nil {
			t.Fatal(err)
		}
		if n == 3 {
			continue // in flight
		}
		outcome := bson.M{
			"_id": id, "workspaceId": "ws_1", "endpointId": "ep_1", "messageId": "ev_1:ep_1", "attempt": n,
			"startedAt": started, "succeeded": n == 2, "statusCode": 500, "durationMs": int64(12),
			"error": "endpoint answered HTTP 500", "finishedAt": started.Add(12 * time.Millisecond),
		}
		if n == 2 {
			outcome["statusCode"], outcome["error"] = 200, ""
		}
		if _, err := db.Collection("webhook_attempt_outcomes").InsertOne(ctx, outcome); err != nil {
			t.Fatal(err)
		}
	}
	e := web.NewEngine(nil)
	g := e.Group("", func(c *gin.Context) {
		c.Request = c.Request.WithContext(internalauth.WithPrincipal(c.Request.Context(), internalauth.Workspace(ws)))
	})
	attemptRoutes(g, svc, func(_ context.Context, workspaceID string) error {
		if !enabled || workspaceID != ws {
			return api.Errorf(api.FailedPrecondition, "advanced webhooks are not enabled")
		}
		return nil
	})
	return e
}

func postAttempts(t *testing.T, e *gin.Engine, body string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	e.ServeHTTP(w, httptest.NewRequest(http.MethodPost, AttemptsPath, strings.NewReader(body)))
	var out map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	return w.Code, out
}

func TestGetAttemptsPages(t *testing.T) {
	e := attemptsEngine(t, "ws_1", true)
	code, out := postAttempts(t, e, `{"data":{"endpointId":"ep_1","limit":2}}`)
	if code != http.StatusOK {
		t.Fatalf("%d %v", code, out)
	}
	data := out["result"].(map[string]any)["data"].(map[string]any)
	attempts := data["attempts"].([]any)
	if len(attempts) != 2 || data["done"] != false || data["iterator"] == nil {
		t.Fatalf("first page %v", data)
	}
	first := attempts[0].(map[string]any) // newest: in flight
	wantFirst := map[string]any{
		"id": "ev_1:ep_1:3", "messageId": "ev_1:ep_1", "eventType": "comment.add", "attempt": 3.0,
		"status": "sending", "statusCode": nil, "durationMs": nil, "error": nil, "timestamp": "2026-01-02T03:04:08.000Z",
	}
	for k, v := range wantFirst {
		if first[k] != v {
			t.Errorf("first attempt %s = %v, want %v", k, first[k], v)
		}
	}
	second := attempts[1].(map[string]any)
	if second["status"] != "succeeded" || second["statusCode"] != 200.0 || second["durationMs"] != 12.0 || second["error"] != nil {
		t.Errorf("second attempt %v", second)
	}

	code, out = postAttempts(t, e, `{"data":{"endpointId":"ep_1","limit":2,"iterator":"`+data["iterator"].(string)+`"}}`)
	if code != http.StatusOK {
		t.Fatalf("%d %v", code, out)
	}
	data = out["result"].(map[string]any)["data"].(map[string]any)
	attempts = data["attempts"].([]any)
	if len(attempts) != 1 || data["done"] != true || data["iterator"] != nil {
		t.Fatalf("last page %v", data)
	}
	last := attempts[0].(map[string]any)
	if last["attempt"] != 1.0 || last["status"] != "failed" || last["statusCode"] != 500.0 || last["error"] != "endpoint answered HTTP 500" {
		t.Errorf("last attempt %v", last)
	}
}

func TestGetAttemptsErrors(t *testing.T) {
	cases := []struct {
		name    string
		enabled bool
		body    string
		code    int
		status  string
	}{
		{"webhooks off", false, `{"data":{"endpointId":"ep_1"}}`, http.StatusBadRequest, "FAILED_PRECONDITION"},
		{"unknown endpoint", true, `{"data":{"endpointId":"ep_2"}}`, http.StatusNotFound, "NOT_FOUND"},
		{"missing endpoint", true, `{"data":{}}`, http.StatusBadRequest, "INVALID_ARGUMENT"},
		{"limit too big", true, `{"data":{"endpointId":"ep_1","limit":251}}`, http.StatusBadRequest, "INVALID_ARGUMENT"},
		{"limit zero", true, `{"data":{"endpointId":"ep_1","limit":0}}`, http.StatusBadRequest, "INVALID_ARGUMENT"},
		{"bad iterator", true, `{"data":{"endpointId":"ep_1","iterator":"nope"}}`, http.StatusBadRequest, "INVALID_ARGUMENT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := attemptsEngine(t, "ws_1", c.enabled)
			code, out := postAttempts(t, e, c.body)
			errBody, _ := out["error"].(map[string]any)
			if errBody == nil || errBody["status"] != c.status || code != api.HTTPStatus(api.Status(c.status)) {
				t.Errorf("got %d %v, want %s", code, out, c.status)
			}
		})
	}
}
