package delivery_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/svc-workspace/internal/delivery"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// waitTimeout bounds every wait; a deadline for a hung test, not a timing
// assertion.
const waitTimeout = 30 * time.Second

// stream is the stream the tests publish on.
const stream = "events:activity"

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// waitFor polls cond until it holds or waitTimeout passes.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fakeTargets is an in-memory webhook.Service: endpoints per workspace.
type fakeTargets struct {
	mu        sync.Mutex
	configs   map[string]webhook.Config
	endpoints map[string][]*webhook.DeliveryTarget // by workspace
	disabled  map[string]string                    // endpoint id → reason
}

func newFakeTargets() *fakeTargets {
	return &fakeTargets{configs: map[string]webhook.Config{}, endpoints: map[string][]*webhook.DeliveryTarget{}, disabled: map[string]string{}}
}

// add configures ws and adds an endpoint with one random secret, returned
// in its whsec_ form.
func (f *fakeTargets) add(ws string, cfg webhook.Config, ep webhook.Endpoint) string {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	f.addWithSecrets(ws, cfg, ep, key)
	return "whsec_" + base64.StdEncoding.EncodeToString(key)
}

func (f *fakeTargets) addWithSecrets(ws string, cfg webhook.Config, ep webhook.Endpoint, secrets ...[]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	cfg.IsEnabled = true
	f.configs[ws] = cfg
	ep.WorkspaceID = ws
	f.endpoints[ws] = append(f.endpoints[ws], &webhook.DeliveryTarget{Endpoint: ep, Secrets: secrets})
}

func (f *fakeTargets) DeliveryTargets(_ context.Context, ws, typ string) (webhook.Config, []webhook.DeliveryTarget, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	cfg := f.configs[ws]
	if !cfg.IsEnabled {
		return cfg, nil, nil
	}
	var out []webhook.DeliveryTarget
	for _, t := range f.endpoints[ws] {
		if !t.Endpoint.Disabled && (t.Endpoint.FilterTypes == nil || slices.Contains(t.Endpoint.FilterTypes, typ)) {
			out = append(out, *t)
		}
	}
	return cfg, out, nil
}

func (f *fakeTargets) DeliveryTarget(_ context.Context, ws, id string) (webhook.Config, webhook.DeliveryTarget, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.endpoints[ws] {
		if t.Endpoint.ID == id {
			return f.configs[ws], *t, nil
		}
	}
	return f.configs[ws], webhook.DeliveryTarget{}, webhook.ErrNotFound
}

func (f *fakeTargets) DisableEndpoint(_ context.Context, ws, id, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.endpoints[ws] {
		if t.Endpoint.ID == id {
			t.Endpoint.Disabled = true
			f.disabled[id] = reason
			return nil
		}
	}
	return webhook.ErrNotFound
}

func (f *fakeTargets) remove(ws, id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.endpoints[ws] = slices.DeleteFunc(f.endpoints[ws], func(t *webhook.DeliveryTarget) bool { return t.Endpoint.ID == id })
}

func (f *fakeTargets) disabledReason(id string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.disabled[id]
	return r, ok
}

// request is one request a receiver got.
type request struct {
	Path   string
	Header http.Header
	Body   []byte
	Status int // what the receiver answered
	At     time.Time
}

// receiver is a loopback webhook receiver. Every request is checked with
// the Standard Webhooks library against the secret of its path, when one is
// registered; answer decides the status (200 by default).
type receiver struct {
	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	got     []request
	secrets map[string]string // path → whsec_ secret
	answer  func(path string, n int) int
}

func newReceiver(t testing.TB) *receiver {
	r := &receiver{t: t, secrets: map[string]string{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) url(path string) string { return r.srv.URL + path }

func (r *receiver) verifyWith(path, secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets[path] = secret
}

func (r *receiver) setAnswer(f func(path string, n int) int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answer = f
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		r.t.Errorf("receiver: read body: %v", err)
		return
	}
	r.mu.Lock()
	secret := r.secrets[req.URL.Path]
	n := 0
	for _, d := range r.got {
		if d.Path == req.URL.Path {
			n++
		}
	}
	status := http.StatusOK
	if r.answer != nil {
		status = r.answer(req.URL.Path, n)
	}
	r.got = append(r.got, request{Path: req.URL.Path, Header: req.Header.Clone(), Body: body, Status: status, At: time.Now()})
	r.mu.Unlock()
	if secret != "" {
		wh, err := standardwebhooks.NewWebhook(secret)
		if err == nil {
			err = wh.Verify(body, req.Header)
		}
		if err != nil {
			r.t.Errorf("receiver: %s: signature does not verify: %v", req.URL.Path, err)
		}
	}
	if req.Header.Get("Content-Type") != "application/json" {
		r.t.Errorf("receiver: Content-Type %q", req.Header.Get("Content-Type"))
	}
	w.WriteHeader(status)
}

func (r *receiver) deliveries() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.got)
}

// succeededIDs counts the 2xx-answered deliveries per webhook-id.
func (r *receiver) succeededIDs() map[string]int {
	out := map[string]int{}
	for _, d := range r.deliveries() {
		if d.Status >= 200 && d.Status < 300 {
			out[d.Header.Get("webhook-id")]++
		}
	}
	return out
}

// testOptions are fast options for tests; loopback receivers need
// AllowPrivateTargets.
func testOptions(t testing.TB) delivery.Options {
	return delivery.Options{
		AllowPrivateTargets: true,
		Workers:             4,
		Timeout:             2 * time.Second,
		Lease:               15 * time.Second, // leaves 13 s between claim and request on a busy machine
		Schedule:            []time.Duration{50 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond},
		Logger:              testLogger(t),
		PollInterval:        50 * time.Millisecond,
		Consumer: events.Options{
			Block: 50 * time.Millisecond, ClaimInterval: 100 * time.Millisecond,
			MinIdle: 500 * time.Millisecond, RetryPause: 50 * time.Millisecond,
		},
	}
}

// running is a started Service.
type running struct {
	svc  *delivery.Service
	stop func()
}

// start runs a Service until stop or the end of the test.
func start(t testing.TB, db *mongo.Database, rdb *redis.Client, targets delivery.Targets, opts delivery.Options) running {
	t.Helper()
	svc := delivery.NewService(db, targets, opts)
	if err := svc.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx, rdb, []string{stream}) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(waitTimeout):
				t.Error("Run did not return after its context ended")
			}
		})
	}
	t.Cleanup(stop)
	return running{svc: svc, stop: stop}
}

// publish puts activity.add events of ws on the stream.
func publish(t testing.TB, rdb *redis.Client, ws string, data ...any) []events.Event {
	t.Helper()
	pub := events.NewPublisher(rdb, nil, "activity", testLogger(t))
	var out []events.Event
	for _, d := range data {
		e, err := events.New("activity.add", "activity", ws, "org_1", "doc_1", d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := pub.Publish(context.Background(), out...); err != nil {
		t.Fatal(err)
	}
	return out
}

// messageStatus reads a message's status from the store: pending while
// queued, then as archived ("" when unknown).
func messageStatus(t testing.TB, db *mongo.Database, id string) string {
	t.Helper()
	var m struct {
		Status string `bson:"status"`
	}
	err := db.Collection("webhook_messages").FindOne(context.Background(), bson.M{"_id": id}).Decode(&m)
	if errors.Is(err, mongo.ErrNoDocuments) {
		err = db.Collection("webhook_queue").FindOne(context.Background(), bson.M{"_id": id}).Decode(&m)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return ""
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return m.Status
}

// allAttempts lists every attempt of an endpoint through the API.
func allAttempts(t testing.TB, svc *delivery.Service, ws, ep string) []delivery.Attempt {
	t.Helper()
	var out []delivery.Attempt
	it := ""
	for {
		page, err := svc.Attempts(context.Background(), ws, ep, 250, it)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page.Attempts...)
		if page.Done {
			return out
		}
		it = page.Iterator
	}
}
