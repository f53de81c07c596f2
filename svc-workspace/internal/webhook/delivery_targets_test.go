// Left out of the fuzz build (scripts/test.sh fuzzes with -tags fuzzonly):
// these tests need pkg/testenv's stores, and `go test -fuzz` compiles every
// package of its test binary instrumented, the MongoDB driver and the
// embedded stores included, for a target that needs none of them.

//go:build !fuzzonly

package webhook_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/secretbox"
	"github.com/opencollab/backend/svc-workspace/internal/store"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
	"github.com/opencollab/backend/svc-workspace/internal/workspace"
)

type fixture struct {
	svc   *webhook.Service
	store *store.Mongo
	box   *secretbox.Box
	pages webhook.Pages
	clock time.Time
}

func newFixture(t *testing.T, workspaceIDs ...string) *fixture {
	t.Helper()
	ctx := context.Background()
	st := store.NewMongo(testenv.Mongo(t))
	if err := st.EnsureIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range workspaceIDs {
		if err := st.InsertWorkspace(ctx, workspace.Workspace{ID: id, APIKey: "ak_" + id, CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	box, err := secretbox.New(bytes.Repeat([]byte{9}, secretbox.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{store: st, box: box, pages: pagetoken.New(testenv.Redis(t), 0), clock: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	f.svc = f.replica()
	return f
}

// replica is another Service over the same store and clock, as a second
// replica of svc-workspace would be: its own (default) target cache.
func (f *fixture) replica() *webhook.Service {
	return webhook.NewService(f.store, f.store, f.pages, webhook.Options{
		Box: f.box, Now: func() time.Time { return f.clock },
	})
}

func (f *fixture) enable(t *testing.T, ws string, on bool) {
	t.Helper()
	if _, err := f.svc.UpdateConfig(context.Background(), ws, webhook.ConfigUpdate{IsEnabled: &on}); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) create(t *testing.T, ws string, spec webhook.EndpointSpec) webhook.Endpoint {
	t.Helper()
	e, err := f.svc.CreateEndpoint(context.Background(), ws, spec)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// key is the raw HMAC key of the endpoint's current secret, as secret/get
// shows it.
func (f *fixture) key(t *testing.T, ws, id string) []byte {
	t.Helper()
	s, err := f.svc.EndpointSecret(context.Background(), ws, id)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// targetIDs lists the targets' URLs sorted: the order of targets is not
// part of the contract.
func targetIDs(ts []webhook.DeliveryTarget) string {
	var ids []string
	for _, t := range ts {
		ids = append(ids, t.Endpoint.URL)
	}
	sort.Strings(ids)
	return strings.Join(ids, " ")
}

func TestDeliveryTargets(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "ws_1", "ws_2")
	f.enable(t, "ws_1", true)
	all := f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://all.example.com"})
	comments := f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://comments.example.com", FilterTypes: []string{"comment.add"}})
	f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://off.example.com", Disabled: true})

	tests := []struct{ eventType, want string }{
		{"activity.add", "https://all.example.com"},
		{"comment.add", "https://all.example.com https://comments.example.com"},
	}
	for _, tt := range tests {
		cfg, targets, err := f.svc.DeliveryTargets(ctx, "ws_1", tt.eventType)
		if err != nil || !cfg.IsEnabled || targetIDs(targets) != tt.want {
			t.Fatalf("%s: %+v %s %v, want %s", tt.eventType, cfg, targetIDs(targets), err, tt.want)
		}
		for _, tg := range targets {
			if len(tg.Secrets) != 1 || !bytes.Equal(tg.Secrets[0], f.key(t, "ws_1", tg.Endpoint.ID)) {
				t.Fatalf("%s: secrets of %s do not match secret/get", tt.eventType, tg.Endpoint.URL)
			}
		}
	}
	// Nothing for another workspace, or one never configured.
	for _, ws := range []string{"ws_2", "ws_unknown"} {
		if cfg, targets, err := f.svc.DeliveryTargets(ctx, ws, "activity.add"); err != nil || cfg.IsEnabled || len(targets) != 0 {
			t.Fatalf("%s: %+v %d %v", ws, cfg, len(targets), err)
		}
	}

	// Disabled by the delivery: no longer a target, but still readable.
	if err := f.svc.DisableEndpoint(ctx, "ws_1", comments.ID, "failing for 5 days"); err != nil {
		t.Fatal(err)
	}
	if _, targets, _ := f.svc.DeliveryTargets(ctx, "ws_1", "comment.add"); targetIDs(targets) != "https://all.example.com" {
		t.Fatalf("after disable: %s", targetIDs(targets))
	}
	if _, tg, err := f.svc.DeliveryTarget(ctx, "ws_1", comments.ID); err != nil || !tg.Endpoint.Disabled {
		t.Fatalf("disabled endpoint: %+v %v", tg.Endpoint, err)
	}
	if err := f.svc.DisableEndpoint(ctx, "ws_2", all.ID, "x"); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("disable across workspaces: %v", err)
	}
	if err := f.svc.DeleteEndpoint(ctx, "ws_1", comments.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.DeliveryTarget(ctx, "ws_1", comments.ID); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("deleted endpoint: %v, want ErrNotFound", err)
	}
	if _, _, err := f.svc.DeliveryTarget(ctx, "ws_2", all.ID); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("another workspace's endpoint: %v, want ErrNotFound", err)
	}

	// Off: isEnabled false, or the operator's switch.
	f.enable(t, "ws_1", false)
	if cfg, targets, err := f.svc.DeliveryTargets(ctx, "ws_1", "activity.add"); err != nil || cfg.IsEnabled || len(targets) != 0 {
		t.Fatalf("isEnabled false: %+v %d %v", cfg, len(targets), err)
	}
	f.enable(t, "ws_1", true)
	if _, err := f.store.SetFeatureSwitches(ctx, "ws_1", map[features.Name]bool{features.AdvancedWebhooks: false}); err != nil {
		t.Fatal(err)
	}
	f.svc.ForgetTargets("ws_1") // what the host does when the switch changes (svcworkspace.switchWatch)
	if cfg, targets, err := f.svc.DeliveryTargets(ctx, "ws_1", "activity.add"); err != nil || cfg.IsEnabled || len(targets) != 0 {
		t.Fatalf("switched off: %+v %d %v", cfg, len(targets), err)
	}
	if cfg, _, err := f.svc.DeliveryTarget(ctx, "ws_1", all.ID); err != nil || cfg.IsEnabled {
		t.Fatalf("switched off, one target: %+v %v", cfg, err)
	}
}

func TestRotationKeepsTheOldSecretForADay(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "ws_1")
	f.enable(t, "ws_1", true)
	ep := f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://r.example.com"})
	first := f.key(t, "ws_1", ep.ID)

	secrets := func() [][]byte {
		t.Helper()
		_, tg, err := f.svc.DeliveryTarget(ctx, "ws_1", ep.ID)
		if err != nil {
			t.Fatal(err)
		}
		return tg.Secrets
	}
	if err := f.svc.RotateEndpointSecret(ctx, "ws_1", ep.ID); err != nil {
		t.Fatal(err)
	}
	second := f.key(t, "ws_1", ep.ID)
	if bytes.Equal(first, second) {
		t.Fatal("rotation kept the secret")
	}
	if got := secrets(); len(got) != 2 || !bytes.Equal(got[0], second) || !bytes.Equal(got[1], first) {
		t.Fatalf("during the overlap: %d secrets, want the new then the old", len(got))
	}

	f.clock = f.clock.Add(webhook.RotationOverlap - time.Second)
	if got := secrets(); len(got) != 2 {
		t.Fatalf("just before the overlap ends: %d secrets", len(got))
	}
	f.clock = f.clock.Add(2 * time.Second)
	if got := secrets(); len(got) != 1 || !bytes.Equal(got[0], second) {
		t.Fatalf("after the overlap: %d secrets, want only the new one", len(got))
	}

	// A further rotation drops the expired secret from the record.
	if err := f.svc.RotateEndpointSecret(ctx, "ws_1", ep.ID); err != nil {
		t.Fatal(err)
	}
	rec, err := f.store.EndpointByID(ctx, "ws_1", ep.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Secrets) != 2 {
		t.Fatalf("stored %d secrets, want the new and the one in its overlap", len(rec.Secrets))
	}
	if got := secrets(); len(got) != 2 || !bytes.Equal(got[1], second) {
		t.Fatalf("second rotation: %d secrets", len(got))
	}
}
