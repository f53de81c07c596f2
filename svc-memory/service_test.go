package svcmemory_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/testenv"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

const secret = "test-internal-secret-0123456789"

var (
	signer  = internalauth.NewSigner(secret)
	ws1     = internalauth.Workspace("ws1")
	ws2     = internalauth.Workspace("ws2")
	content = internalauth.Service("content")
)

type env struct {
	t   *testing.T
	h   http.Handler
	db  *mongo.Database
	rdb *redis.Client
	pub *events.Publisher
	svc *svcmemory.Service
}

// newEnv starts the service on fresh stores.
func newEnv(t *testing.T, cfg svcmemory.Config) *env {
	t.Helper()
	e := &env{t: t, db: testenv.Mongo(t), rdb: testenv.Redis(t)}
	e.pub = events.NewPublisher(e.rdb, nil, "activity", nil)
	e.start(cfg)
	return e
}

// start (re)starts the service on e's stores.
func (e *env) start(cfg svcmemory.Config) {
	e.t.Helper()
	cfg.InternalSecret = secret
	if cfg.EmbeddingDim == 0 {
		cfg.EmbeddingDim = 256
	}
	svc, err := svcmemory.New(context.Background(), cfg, svcmemory.Deps{DB: e.db, Redis: e.rdb})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(svc.Close) // registered last: runs before the stores go away
	e.svc, e.h = svc, svc.Handler()
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

// call posts {"data": data} as principal.
func (e *env) call(principal, path string, data any) (int, reply) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"data": data})
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	signer.Sign(req.Header, principal)
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	var r reply
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		e.t.Fatalf("%s: reply is not JSON: %s", path, rec.Body.String())
	}
	return rec.Code, r
}

// ok calls and decodes result (memory ops) into out, failing on an error.
func (e *env) ok(principal, path string, data, out any) reply {
	e.t.Helper()
	code, r := e.call(principal, path, data)
	if code != http.StatusOK || r.Result == nil {
		e.t.Fatalf("%s: HTTP %d %s: %s %v", path, code, r.Error.Status, r.Error.Message, r.issueFields())
	}
	if out != nil {
		b, _ := json.Marshal(r.Result)
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("%s: decode result %s: %v", path, b, err)
		}
	}
	return r
}

// okData calls an operation with the standard envelope and decodes
// result.data into out.
func (e *env) okData(principal, path string, data, out any) reply {
	e.t.Helper()
	r := e.ok(principal, path, data, nil)
	var status string
	_ = json.Unmarshal(r.Result["status"], &status)
	if status != "success" {
		e.t.Fatalf("%s: result.status %q", path, status)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result["data"], out); err != nil {
			e.t.Fatalf("%s: decode data %s: %v", path, r.Result["data"], err)
		}
	}
	return r
}

func (e *env) fails(principal, path string, data any, wantCode int, wantStatus string) reply {
	e.t.Helper()
	code, r := e.call(principal, path, data)
	if code != wantCode || r.Error.Status != wantStatus {
		e.t.Fatalf("%s: got HTTP %d %q (%s), want %d %s", path, code, r.Error.Status, r.Error.Message, wantCode, wantStatus)
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
	e.t.Helper()
	evs := make([]events.Event, len(acts))
	for i, a := range acts {
		md, _ := a["metadata"].(map[string]any)
		org, _ := md["organizationId"].(string)
		doc, _ := md["documentId"].(string)
		ev, err := events.New(typ, "activity", ws, org, doc, a)
		if err != nil {
			e.t.Fatal(err)
		}
		evs[i] = ev
	}
	e.publishEvents(evs...)
	return evs
}

func (e *env) publishEvents(evs ...events.Event) {
	e.t.Helper()
	if err := e.pub.Publish(context.Background(), evs...); err != nil {
		e.t.Fatal(err)
	}
}

// judgments counts the stored judgments matching filter.
func (e *env) judgments(filter bson.M) int64 {
	e.t.Helper()
	n, err := e.db.Collection("judgments").CountDocuments(context.Background(), filter)
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// waitFor polls cond until it holds (the consumer is asynchronous).
func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ingest publishes activity.add events and waits until the judgments of
// ws number want (ingestion done, indexed included).
func (e *env) ingest(ws string, want int64, acts ...activity) {
	e.t.Helper()
	e.publish(ws, "activity.add", acts...)
	e.waitIndexed(ws, want)
}

func (e *env) waitIndexed(ws string, want int64) {
	e.t.Helper()
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
