// Left out of the fuzz build (scripts/test.sh fuzzes with -tags fuzzonly):
// these tests need pkg/testenv's stores, and `go test -fuzz` compiles every
// package of its test binary instrumented, the MongoDB driver and the
// embedded stores included, for a target that needs none of them.

//go:build !fuzzonly

package webhook_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// targetsOf is DeliveryTargets' URLs for an activity.add, "off" when
// advanced webhooks are off.
func targetsOf(t *testing.T, svc *webhook.Service, ws string) string {
	t.Helper()
	cfg, targets, err := svc.DeliveryTargets(context.Background(), ws, "activity.add")
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.IsEnabled {
		return "off"
	}
	return targetIDs(targets)
}

// TestDeliveryTargetsOfAnotherReplicaExpire: a change made through another
// replica is seen once the cache TTL has passed, and not before — the
// documented staleness.
func TestDeliveryTargetsOfAnotherReplicaExpire(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "ws_1")
	f.enable(t, "ws_1", true)
	ep := f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://a.example.com"})
	other := f.replica()

	if got := targetsOf(t, f.svc, "ws_1"); got != "https://a.example.com" {
		t.Fatalf("before: %s", got)
	}
	on := true
	if _, err := other.UpdateEndpoint(ctx, "ws_1", ep.ID, webhook.EndpointChanges{Disabled: &on}); err != nil {
		t.Fatal(err)
	}
	f.clock = f.clock.Add(webhook.DefaultTargetCacheTTL - 1)
	if got := targetsOf(t, f.svc, "ws_1"); got != "https://a.example.com" {
		t.Fatalf("within the TTL: %s, want the cached endpoint", got)
	}
	if _, tg, err := f.svc.DeliveryTarget(ctx, "ws_1", ep.ID); err != nil || tg.Endpoint.Disabled {
		t.Fatalf("within the TTL: %+v %v, want the cached active endpoint", tg.Endpoint, err)
	}
	f.clock = f.clock.Add(1)
	if got := targetsOf(t, f.svc, "ws_1"); got != "" {
		t.Fatalf("after the TTL: %s, want no target", got)
	}
	if _, tg, err := f.svc.DeliveryTarget(ctx, "ws_1", ep.ID); err != nil || !tg.Endpoint.Disabled {
		t.Fatalf("after the TTL: %+v %v, want the disabled endpoint", tg.Endpoint, err)
	}

	off := false
	if _, err := other.UpdateConfig(ctx, "ws_1", webhook.ConfigUpdate{IsEnabled: &off}); err != nil {
		t.Fatal(err)
	}
	if cfg, _, err := f.svc.DeliveryTarget(ctx, "ws_1", ep.ID); err != nil || !cfg.IsEnabled {
		t.Fatalf("config within the TTL: %+v %v, want the cached one", cfg, err)
	}
	f.clock = f.clock.Add(webhook.DefaultTargetCacheTTL)
	if got := targetsOf(t, f.svc, "ws_1"); got != "off" {
		t.Fatalf("config after the TTL: %s, want off", got)
	}
}

// TestDeliveryTargetsSeeThisReplicasChangesAtOnce: every write of the
// package forgets the workspace's cached targets; the clock never moves.
func TestDeliveryTargetsSeeThisReplicasChangesAtOnce(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "ws_1")
	f.enable(t, "ws_1", true)
	a := f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://a.example.com"})
	if got := targetsOf(t, f.svc, "ws_1"); got != "https://a.example.com" {
		t.Fatalf("one endpoint: %s", got)
	}
	b := f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://b.example.com"})
	if got := targetsOf(t, f.svc, "ws_1"); got != "https://a.example.com https://b.example.com" {
		t.Fatalf("after create: %s", got)
	}
	comments := webhook.Patch[[]string]{Set: true, Value: &[]string{"comment.add"}}
	if _, err := f.svc.UpdateEndpoint(ctx, "ws_1", b.ID, webhook.EndpointChanges{FilterTypes: comments}); err != nil {
		t.Fatal(err)
	}
	if got := targetsOf(t, f.svc, "ws_1"); got != "https://a.example.com" {
		t.Fatalf("after update of filterTypes: %s", got)
	}

	old := f.key(t, "ws_1", b.ID)
	if err := f.svc.RotateEndpointSecret(ctx, "ws_1", b.ID); err != nil {
		t.Fatal(err)
	}
	if _, tg, err := f.svc.DeliveryTarget(ctx, "ws_1", b.ID); err != nil || len(tg.Secrets) != 2 ||
		!bytes.Equal(tg.Secrets[0], f.key(t, "ws_1", b.ID)) || !bytes.Equal(tg.Secrets[1], old) {
		t.Fatalf("after rotate: %d secrets %v, want the new then the old", len(tg.Secrets), err)
	}

	if err := f.svc.DeleteEndpoint(ctx, "ws_1", b.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.DeliveryTarget(ctx, "ws_1", b.ID); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("after delete: %v, want ErrNotFound", err)
	}
	if err := f.svc.DisableEndpoint(ctx, "ws_1", a.ID, "failing for 5 days"); err != nil {
		t.Fatal(err)
	}
	if got := targetsOf(t, f.svc, "ws_1"); got != "" {
		t.Fatalf("after the delivery disabled it: %s", got)
	}
	f.enable(t, "ws_1", false)
	if got := targetsOf(t, f.svc, "ws_1"); got != "off" {
		t.Fatalf("after isEnabled false: %s", got)
	}
}

// TestDeliveryTargetsCacheIsPerWorkspace: a workspace's entry holds only
// its own endpoints, and forgetting one workspace keeps the others'.
func TestDeliveryTargetsCacheIsPerWorkspace(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, "ws_1", "ws_2")
	f.enable(t, "ws_1", true)
	f.enable(t, "ws_2", true)
	one := f.create(t, "ws_1", webhook.EndpointSpec{URL: "https://one.example.com"})
	two := f.create(t, "ws_2", webhook.EndpointSpec{URL: "https://two.example.com"})
	if targetsOf(t, f.svc, "ws_1") != "https://one.example.com" || targetsOf(t, f.svc, "ws_2") != "https://two.example.com" {
		t.Fatal("each workspace must see its own endpoint only")
	}
	if _, _, err := f.svc.DeliveryTarget(ctx, "ws_1", two.ID); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("ws_2's endpoint through ws_1: %v, want ErrNotFound", err)
	}

	// Both change through another replica; this one forgets only ws_1.
	other := f.replica()
	for ws, id := range map[string]string{"ws_1": one.ID, "ws_2": two.ID} {
		if err := other.DisableEndpoint(ctx, ws, id, "test"); err != nil {
			t.Fatal(err)
		}
	}
	f.svc.ForgetTargets("ws_1")
	if got := targetsOf(t, f.svc, "ws_1"); got != "" {
		t.Fatalf("ws_1 after its invalidate: %s, want the change", got)
	}
	if got := targetsOf(t, f.svc, "ws_2"); got != "https://two.example.com" {
		t.Fatalf("ws_2 after ws_1's invalidate: %s, want its entry kept", got)
	}
}
