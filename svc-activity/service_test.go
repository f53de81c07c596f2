package svcactivity_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/activityevent"
	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcactivity "github.com/opencollab/backend/svc-activity"
)

var (
	ws1     = internalauth.Workspace("ws1")
	ws2     = internalauth.Workspace("ws2")
	content = internalauth.Service("content")
)

type env struct{ *servicetest.Env }

func newEnv(t *testing.T, cfg svcactivity.Config) *env {
	t.Helper()
	return &env{servicetest.New(t, svcactivity.New, cfg)}
}

// act is an activity of the add body.
type act = map[string]any

func user(id string) map[string]any { return map[string]any{"userId": id, "name": "User " + id} }

func comment(id string) act {
	a := act{"featureType": "comment", "actionType": "comment.add", "actionUser": user("u1")}
	if id != "" {
		a["id"] = id
	}
	return a
}

func (e *env) add(principal, org, doc string, acts ...act) {
	e.T.Helper()
	e.OK(principal, "/v2/activities/add", map[string]any{"organizationId": org, "documentId": doc, "activities": acts}, nil)
}

// view is a returned record, decoded as the contract its event consumers
// read, with the free-form fields raw.
type view = activityevent.Record

// get returns one page and its next token ("" on the last page).
func (e *env) get(principal string, q map[string]any) ([]view, string) {
	e.T.Helper()
	var page []view
	r := e.OK(principal, "/v2/activities/get", q, &page)
	if page == nil {
		e.T.Fatalf("get: data %s is not an array", r.Result.Data)
	}
	if r.Result.PageToken == nil {
		return page, ""
	}
	return page, *r.Result.PageToken
}

func ids(vs []view) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

type itemResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func (e *env) count(filter bson.M) int64 { return e.Count("activities", filter) }

// published returns the events on the activity stream, oldest first.
func (e *env) published() []events.Event { return e.Published(events.Stream("activity")) }

func TestWrongPrincipal(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	addBody := map[string]any{"organizationId": "o1", "documentId": "d1", "activities": []act{comment("a1")}}
	moveBody := map[string]any{"workspaceId": "ws1", "organizationId": "o1", "documentId": "d1", "newDocumentId": "d2"}
	tests := []struct {
		name, principal, path string
		data                  any
	}{
		{"service adds", content, "/v2/activities/add", addBody},
		{"operator adds", internalauth.Operator, "/v2/activities/add", addBody},
		{"workspace migrates", ws1, docmigrate.MigratePath, moveBody},
		{"workspace asks has-data", ws1, docmigrate.HasDataPath, moveBody},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e.Fails(tt.principal, tt.path, tt.data, http.StatusForbidden, "PERMISSION_DENIED")
		})
	}
	req := httptest.NewRequest(http.MethodPost, "/v2/activities/add", strings.NewReader(`{"data":{}}`))
	rec := httptest.NewRecorder()
	e.H.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("unsigned request: HTTP %d", rec.Code)
	}
	if n := e.count(bson.M{}); n != 0 {
		t.Fatalf("denied calls wrote %d records", n)
	}
}
