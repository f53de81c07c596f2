// Package servicetest is the harness of a service's tests: a service
// started on its own fresh MongoDB database and Redis (pkg/testenv), and a
// client that posts signed envelopes to its handler and decodes the reply.
package servicetest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/testenv"
)

// Secret is the internal secret of every service under test; Signer signs
// with it.
const Secret = "test-internal-secret-0123456789"

// Signer signs requests as the gateway or another service would.
var Signer = internalauth.NewSigner(Secret)

// Reply is a service's answer: either envelope, decoded loosely, and the
// body as sent.
type Reply struct {
	Result struct {
		Status    string          `json:"status"`
		Message   string          `json:"message"`
		Data      json.RawMessage `json:"data"`
		PageToken *string         `json:"pageToken"`
	} `json:"result"`
	Error struct {
		Status  string          `json:"status"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
	Body []byte `json:"-"`
}

// Client posts to a service's handler.
type Client struct {
	T testing.TB
	H http.Handler
}

// Call posts {"data": data} (no body when data is nil) as principal
// (unsigned when principal is "").
func (c Client) Call(principal, path string, data any) (int, Reply) {
	c.T.Helper()
	var body []byte
	if data != nil {
		body, _ = json.Marshal(map[string]any{"data": data})
	}
	return c.CallRaw(principal, path, body)
}

// CallRaw posts body as is (json.Marshal would HTML-escape it).
func (c Client) CallRaw(principal, path string, body []byte) (int, Reply) {
	c.T.Helper()
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if principal != "" {
		Signer.Sign(req.Header, principal)
	}
	rec := httptest.NewRecorder()
	c.H.ServeHTTP(rec, req)
	r := Reply{Body: rec.Body.Bytes()}
	if err := json.Unmarshal(r.Body, &r); err != nil {
		c.T.Fatalf("%s: reply is not JSON: %s", path, r.Body)
	}
	return rec.Code, r
}

// OK calls and decodes result.data into out (unless nil), failing on an
// error reply.
func (c Client) OK(principal, path string, data, out any) Reply {
	c.T.Helper()
	code, r := c.Call(principal, path, data)
	if code != http.StatusOK || r.Result.Status != "success" {
		c.T.Fatalf("%s: HTTP %d %s: %s", path, code, r.Error.Status, r.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(r.Result.Data, out); err != nil {
			c.T.Fatalf("%s: decode data %s: %v", path, r.Result.Data, err)
		}
	}
	return r
}

// Fails calls and fails the test unless the reply is wantCode with the
// error status wantStatus.
func (c Client) Fails(principal, path string, data any, wantCode int, wantStatus string) Reply {
	c.T.Helper()
	code, r := c.Call(principal, path, data)
	if code != wantCode || r.Error.Status != wantStatus {
		c.T.Fatalf("%s: got HTTP %d %q (%s), want %d %s", path, code, r.Error.Status, r.Error.Message, wantCode, wantStatus)
	}
	return r
}

// Env is one test's service: its own stores and a client of its handler
// (set by Start).
type Env struct {
	Client
	DB    *mongo.Database
	Redis *redis.Client
}

// NewEnv gives t a fresh MongoDB database and a Redis of its own.
func NewEnv(t testing.TB) *Env {
	t.Helper()
	return &Env{Client: Client{T: t}, DB: testenv.Mongo(t), Redis: testenv.Redis(t)}
}

// Started is what a service's New returns.
type Started interface {
	Handler() http.Handler
	Close()
}

// Start builds the service on e's stores with cfg (its internal secret
// set to Secret), serves it through e's client and closes it when the test
// ends, before the stores go away. Calling it again restarts on the same
// stores.
func Start[C any, PC interface {
	*C
	service.Config
}, S Started](e *Env, newService func(context.Context, C, service.Deps) (S, error), cfg C) S {
	e.T.Helper()
	PC(&cfg).Common().InternalSecret = Secret
	svc, err := newService(context.Background(), cfg, service.Deps{DB: e.DB, Redis: e.Redis})
	if err != nil {
		e.T.Fatal(err)
	}
	e.T.Cleanup(svc.Close) // registered last: runs before the stores go away
	e.H = svc.Handler()
	return svc
}

// New is NewEnv and Start: t's service on stores of its own.
func New[C any, PC interface {
	*C
	service.Config
}, S Started](t testing.TB, newService func(context.Context, C, service.Deps) (S, error), cfg C) *Env {
	t.Helper()
	e := NewEnv(t)
	Start[C, PC](e, newService, cfg)
	return e
}

// Count is the number of documents of collection matching filter.
func (e *Env) Count(collection string, filter any) int64 {
	e.T.Helper()
	n, err := e.DB.Collection(collection).CountDocuments(context.Background(), filter)
	if err != nil {
		e.T.Fatal(err)
	}
	return n
}

// Published returns the events on stream, oldest first.
func (e *Env) Published(stream string) []events.Event {
	e.T.Helper()
	msgs, err := e.Redis.XRange(context.Background(), stream, "-", "+").Result()
	if err != nil {
		e.T.Fatal(err)
	}
	out := make([]events.Event, len(msgs))
	for i, m := range msgs {
		payload, _ := m.Values["event"].(string)
		if err := json.Unmarshal([]byte(payload), &out[i]); err != nil {
			e.T.Fatalf("stream entry %v: %v", m.Values, err)
		}
	}
	return out
}

// Indexed runs s's EnsureIndexes twice and returns s: every start-up runs
// it, so a second run must be a no-op.
func Indexed[S interface {
	EnsureIndexes(context.Context) error
}](t testing.TB, s S) S {
	t.Helper()
	if err := s.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.EnsureIndexes(context.Background()); err != nil {
		t.Fatalf("EnsureIndexes twice: %v", err)
	}
	return s
}
