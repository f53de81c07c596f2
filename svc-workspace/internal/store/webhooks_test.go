package store_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

func TestVersionedConfigSaves(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	if _, _, err := s.WebhookConfig(ctx, "ws_1"); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("never saved: %v, want ErrNotFound", err)
	}
	if err := s.SaveWebhookConfig(ctx, "ws_1", webhook.Config{IsEnabled: true}, 0); err != nil {
		t.Fatal(err)
	}
	// A second writer that also read "nothing stored" loses and retries.
	if err := s.SaveWebhookConfig(ctx, "ws_1", webhook.Config{EncodeData: true}, 0); !errors.Is(err, webhook.ErrConflict) {
		t.Fatalf("second first save: %v, want ErrConflict", err)
	}
	c, v, err := s.WebhookConfig(ctx, "ws_1")
	if err != nil || v != 1 || c != (webhook.Config{IsEnabled: true}) {
		t.Fatalf("after first save: %+v v%d %v", c, v, err)
	}
	if err := s.SaveWebhookConfig(ctx, "ws_1", webhook.Config{IsEnabled: true, PublicKey: "k"}, 1); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveWebhookConfig(ctx, "ws_1", webhook.Config{}, 1); !errors.Is(err, webhook.ErrConflict) {
		t.Fatalf("stale save: %v, want ErrConflict", err)
	}
	if c, v, _ := s.WebhookConfig(ctx, "ws_1"); v != 2 || c.PublicKey != "k" {
		t.Fatalf("stale save changed the record: %+v v%d", c, v)
	}

	// Email triggers round-trip through the array form.
	triggers := map[string]bool{"comment.add": true, "comment_annotation.status_change": false}
	if err := s.SaveEmailConfig(ctx, "ws_1", webhook.EmailConfig{Type: "custom", Triggers: triggers}, 0); err != nil {
		t.Fatal(err)
	}
	if e, v, err := s.EmailConfig(ctx, "ws_1"); err != nil || v != 1 || !maps.Equal(e.Triggers, triggers) || e.Type != "custom" {
		t.Fatalf("email config: %+v v%d %v", e, v, err)
	}
	if _, _, err := s.EmailConfig(ctx, "ws_2"); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("another workspace's email config: %v", err)
	}
}

func endpointRecord(ws, id string, uid *string, at time.Time) webhook.EndpointRecord {
	return webhook.EndpointRecord{
		Endpoint: webhook.Endpoint{ID: id, WorkspaceID: ws, URL: "https://x.example.com", UID: uid, CreatedAt: at, UpdatedAt: at},
		Secrets:  []webhook.Secret{{Sealed: "v1:s"}}, SecretsVersion: 1,
	}
}

func TestEndpointUIDsAndSecrets(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	at := time.Now().UTC().Truncate(time.Millisecond)
	uid := "crm-1"
	if err := s.InsertEndpoint(ctx, endpointRecord("ws_1", "ep_1", &uid, at)); err != nil {
		t.Fatal(err)
	}
	if err := s.InsertEndpoint(ctx, endpointRecord("ws_1", "ep_2", &uid, at)); !errors.Is(err, webhook.ErrDuplicate) {
		t.Fatalf("same uid, same workspace: %v, want ErrDuplicate", err)
	}
	// Endpoints without uid never collide; another workspace may use the uid.
	for _, r := range []webhook.EndpointRecord{
		endpointRecord("ws_1", "ep_3", nil, at), endpointRecord("ws_1", "ep_4", nil, at), endpointRecord("ws_2", "ep_5", &uid, at),
	} {
		if err := s.InsertEndpoint(ctx, r); err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
	}

	next := []webhook.Secret{{Sealed: "v1:new"}, {Sealed: "v1:s", ExpiresAt: &at}}
	if err := s.ReplaceEndpointSecrets(ctx, "ws_1", "ep_1", 1, next, at); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceEndpointSecrets(ctx, "ws_1", "ep_1", 1, nil, at); !errors.Is(err, webhook.ErrConflict) {
		t.Fatalf("stale rotation: %v, want ErrConflict", err)
	}
	if err := s.ReplaceEndpointSecrets(ctx, "ws_2", "ep_1", 2, nil, at); !errors.Is(err, webhook.ErrNotFound) {
		t.Fatalf("rotation across workspaces: %v, want ErrNotFound", err)
	}
	rec, err := s.EndpointByID(ctx, "ws_1", "ep_1")
	if err != nil || rec.SecretsVersion != 2 || len(rec.Secrets) != 2 || rec.Secrets[0].Sealed != "v1:new" || !rec.Secrets[1].ExpiresAt.Equal(at) {
		t.Fatalf("after rotation: %+v %v", rec, err)
	}
}

func TestListEndpointsKeyset(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	base := time.Now().UTC().Truncate(time.Millisecond)
	// ep_d and ep_c share a createdAt: the id breaks the tie.
	for _, r := range []struct {
		id  string
		sec int
	}{{"ep_b", 0}, {"ep_a", 1}, {"ep_d", 2}, {"ep_c", 2}} {
		if err := s.InsertEndpoint(ctx, endpointRecord("ws_1", r.id, nil, base.Add(time.Duration(r.sec)*time.Second))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.InsertEndpoint(ctx, endpointRecord("ws_2", "ep_0", nil, base)); err != nil {
		t.Fatal(err)
	}
	list := func(q webhook.EndpointQuery) []string {
		t.Helper()
		eps, err := s.ListEndpoints(ctx, "ws_1", q)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range eps {
			ids = append(ids, e.ID)
		}
		return ids
	}
	all := list(webhook.EndpointQuery{Limit: 10})
	if !slices.Equal(all, []string{"ep_b", "ep_a", "ep_c", "ep_d"}) { // ws_2's ep_0 is not listed
		t.Fatalf("order %v", all)
	}
	cursor := func(id string) *webhook.Cursor {
		rec, err := s.EndpointByID(ctx, "ws_1", id)
		if err != nil {
			t.Fatal(err)
		}
		return &webhook.Cursor{CreatedAt: rec.CreatedAt, ID: rec.ID}
	}
	tests := []struct {
		name string
		q    webhook.EndpointQuery
		want []string
	}{
		{"after ep_a", webhook.EndpointQuery{After: cursor("ep_a"), Limit: 10}, []string{"ep_c", "ep_d"}},
		{"after ep_c (tie)", webhook.EndpointQuery{After: cursor("ep_c"), Limit: 10}, []string{"ep_d"}},
		{"after ep_b, limit 2", webhook.EndpointQuery{After: cursor("ep_b"), Limit: 2}, []string{"ep_a", "ep_c"}},
		{"before ep_d (tie), newest first", webhook.EndpointQuery{Before: cursor("ep_d"), Limit: 10}, []string{"ep_c", "ep_a", "ep_b"}},
		{"before ep_b", webhook.EndpointQuery{Before: cursor("ep_b"), Limit: 10}, nil},
	}
	for _, tt := range tests {
		if got := list(tt.q); !slices.Equal(got, tt.want) {
			t.Fatalf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
