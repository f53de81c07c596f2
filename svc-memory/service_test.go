package svcmemory_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service/servicetest"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

var (
	ws1     = internalauth.Workspace("ws1")
	ws2     = internalauth.Workspace("ws2")
	content = internalauth.Service("content")
)

type env struct {
	*servicetest.Env
	pub *events.Publisher
	svc *svcmemory.Service
}

// newEnv starts the service on fresh stores.
func newEnv(t *testing.T, cfg svcmemory.Config) *env {
	t.Helper()
	e := &env{Env: servicetest.NewEnv(t)}
	e.pub = events.NewPublisher(e.Redis, nil, "activity", nil)
	e.start(cfg)
	return e
}

// start (re)starts the service on e's stores.
func (e *env) start(cfg svcmemory.Config) {
	e.T.Helper()
	if cfg.EmbeddingDim == 0 {
		cfg.EmbeddingDim = 256
	}
	e.svc = servicetest.Start(e.Env, svcmemory.New, cfg)
}

// reply is either envelope, decoded loosely.
type reply struct {
	Result map[string]json.RawMessage `json:"result"`
	Error  struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Details struct {
			Issues []struct {
				Field   string `json:"field"`
				Message string `json:"message"`
			} `json:"issues"`
		} `json:"details"`
	} `json:"error"`
}

func (r reply) issueFields() []string {
	var out []string
	for _, is := range r.Error.Details.Issues {
		out = append(out, is.Field)
	}
	return out
}

// call posts {"data": data} as principal; memory's operations answer a
// result of their own shape, so the reply is decoded here.
func (e *env) call(principal, path string, data any) (int, reply) {
	e.T.Helper()
	body, _ := json.Marshal(map[string]any{"data": data})
	code, raw := e.CallRaw(principal, path, body)
	var r reply
	if err := json.Unmarshal(raw.Body, &r); err != nil {
		e.T.Fatalf("%s: reply is not JSON: %s", path, raw.Body)
	}
	return code, r
}

// ok calls and decodes result (memory ops) into out, failing on an error.
func (e *env) ok(principal, path string, data, out any) reply {
	e.T.Helper()
	code, r := e.call(principal, path, data)
	if code != http.StatusOK || r.Result == nil {
		e.T.Fatalf("%s: HTTP %d %s: %s %v", path, code, r.Error.Status, r.Error.Message, r.issueFields())
	}
	if out != nil {
		b, _ := json.Marshal(r.Result)
		if err := json.Unmarshal(b, out); err != nil {
			e.T.Fatalf("%s: decode result %s: %v", path, b, err)
		}
	}
	return r
}

// okData calls an operation with the standard envelope and decodes
// result.data into out.
func (e *env) okData(principal, path string, data, out any) reply {
	e.T.Helper()
	r := e.ok(principal, path, data, nil)
	var status string
	_ = json.Unmarshal(r.Result["status"], &status)
	if status != "success" {
		e.T.Fatalf("%s: result.status %q", path, status)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result["data"], out); err != nil {
			e.T.Fatalf("%s: decode data %s: %v", path, r.Result["data"], err)
		}
	}
	return r
}

func (e *env) fails(principal, path string, data any, wantCode int, wantStatus string) reply {
	e.T.Helper()
	code, r := e.call(principal, path, data)
	if code != wantCode || r.Error.Status != wantStatus {
		e.T.Fatalf("%s: got HTTP %d %q (%s), want %d %s", path, code, r.Error.Status, r.Error.Message, wantCode, wantStatus)
	}
	return r
}

// activity is an activity record as svc-activity's events carry it.
type activity map[string]any

func review(id, actionType, org, doc, annotation, userID, text string, at time.Time) activity {
	a := activity{
		"id": id, "featureType": "comment", "actionType": actionType,
		"actionUser":     map[string]any{"userId": userID, "name": "User " + userID, "email": userID + "@example.com"},
		"targetEntityId": annotation,
		"metadata":       map[string]any{"organizationId": org, "documentId": doc},
		"timestamp":      at.UnixMilli(),
	}
	if text != "" {
		a["entityData"] = map[string]any{"commentText": text}
	}
	return a
}

// with returns a copy of a with extra fields.
func (a activity) with(kv ...any) activity {
	out := activity{}
	for k, v := range a {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

// publish sends one activity event per record, as svc-activity does.
func (e *env) publish(ws, typ string, acts ...activity) []events.Event {
	e.T.Helper()
	evs := make([]events.Event, len(acts))
	for i, a := range acts {
		md, _ := a["metadata"].(map[string]any)
		org, _ := md["organizationId"].(string)
		doc, _ := md["documentId"].(string)
		ev, err := events.New(typ, "activity", ws, org, doc, a)
		if err != nil {
			e.T.Fatal(err)
		}
		evs[i] = ev
	}
	e.publishEvents(evs...)
	return evs
}

func (e *env) publishEvents(evs ...events.Event) {
	e.T.Helper()
	if err := e.pub.Publish(context.Background(), evs...); err != nil {
		e.T.Fatal(err)
	}
}

// judgments counts the stored judgments matching filter.
func (e *env) judgments(filter bson.M) int64 { return e.Count("judgments", filter) }

// waitFor polls cond until it holds (the consumer is asynchronous).
func (e *env) waitFor(what string, cond func() bool) {
	e.T.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			e.T.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ingest publishes activity.add events and waits until the judgments of
// ws number want (ingestion done, indexed included).
func (e *env) ingest(ws string, want int64, acts ...activity) {
	e.T.Helper()
	e.publish(ws, "activity.add", acts...)
	e.waitIndexed(ws, want)
}

func (e *env) waitIndexed(ws string, want int64) {
	e.T.Helper()
	e.waitFor(fmt.Sprintf("%d indexed judgments of %s", want, ws), func() bool {
		return e.judgments(bson.M{"workspaceId": ws, "indexed": true}) == want &&
			e.judgments(bson.M{"workspaceId": ws}) == want
	})
}

// record is a returned judgment.
type record struct {
	RecordID       string          `json:"recordId"`
	Reasoning      string          `json:"reasoning"`
	Decision       string          `json:"decision"`
	Confidence     float64         `json:"confidence"`
	JudgeType      string          `json:"judgeType"`
	ContentType    string          `json:"contentType"`
	ActionUser     map[string]any  `json:"actionUser"`
	CreatedAt      int64           `json:"createdAt"`
	OrganizationID string          `json:"organizationId"`
	DocumentID     string          `json:"documentId"`
	AnnotationID   string          `json:"annotationId"`
	Agent          json.RawMessage `json:"agent"`
	Similarity     float64         `json:"similarity"`
	Scope          string          `json:"scope"`
}

func ids(rs []record) string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.RecordID
	}
	return strings.Join(out, ",")
}
