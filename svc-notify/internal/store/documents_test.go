package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/opencollab/backend/svc-notify/internal/notify"
)

func TestMoveDocument(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	for i := range 3 {
		save(t, s, "ws1", note(fmt.Sprint("n", i), int64(i)))
	}
	save(t, s, "ws1", note("keep", 9, func(n *notify.Notification) { n.DocumentID = "d2" }))
	if err := s.SaveConfigs(ctx, "ws1", "o1", []string{"u1", "u2"}, []string{"d1"}, notify.Config{Inbox: notify.LevelNone}, 1); err != nil {
		t.Fatal(err)
	}
	if has, err := s.DocumentHasData(ctx, "ws1", "o1", "d9"); err != nil || has {
		t.Fatalf("d9 has data before the move: %v, %v", has, err)
	}
	moved, err := s.MoveDocument(ctx, "ws1", "o1", "d1", "d9")
	if err != nil || moved != 5 {
		t.Fatalf("moved %d (%v), want 3 notifications + 2 configs", moved, err)
	}
	if again, err := s.MoveDocument(ctx, "ws1", "o1", "d1", "d9"); err != nil || again != 0 {
		t.Fatalf("second run moved %d (%v)", again, err)
	}
	if got := list(t, s, "ws1", notify.ListQuery{Filter: notify.Filter{DocumentID: "d9"}}); len(got) != 3 {
		t.Fatalf("d9 holds %v", got)
	}
	cfg, _ := s.LoadConfigs(ctx, "ws1", "o1", "u2", []string{"d1", "d9"})
	if _, old := cfg["d1"]; old || cfg["d9"].Inbox != notify.LevelNone {
		t.Fatalf("configs after move: %+v", cfg)
	}
	if has, _ := s.DocumentHasData(ctx, "ws1", "o1", "d1"); has {
		t.Fatal("d1 still has data")
	}
	if has, _ := s.DocumentHasData(ctx, "ws1", "o1", "d2"); !has {
		t.Fatal("d2 lost its data")
	}
}

func TestConfigs(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	steps := []struct {
		users, docs []string
		c           notify.Config
	}{
		{[]string{"u1"}, []string{""}, notify.Config{Inbox: notify.LevelMine, Email: notify.LevelNone}},
		{[]string{"u1", "u2"}, []string{"d1", "d2"}, notify.Config{Email: notify.LevelAll}},
		{[]string{"u1"}, []string{"d1"}, notify.Config{Slack: notify.LevelNone}},
	}
	for _, st := range steps {
		if err := s.SaveConfigs(ctx, "ws1", "o1", st.users, st.docs, st.c, 1); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LoadConfigs(ctx, "ws1", "o1", "u1", []string{"", "d1", "d2", "d3"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]notify.Config{
		"":   {Inbox: notify.LevelMine, Email: notify.LevelNone},
		"d1": {Email: notify.LevelAll, Slack: notify.LevelNone}, // the later set kept the earlier email
		"d2": {Email: notify.LevelAll},
	}
	if len(got) != len(want) {
		t.Fatalf("configs %+v, want %+v", got, want)
	}
	for doc, w := range want {
		if got[doc] != w {
			t.Errorf("document %q: %+v, want %+v", doc, got[doc], w)
		}
	}
	if other, _ := s.LoadConfigs(ctx, "ws2", "o1", "u1", []string{"", "d1"}); len(other) != 0 {
		t.Fatalf("ws2 reads ws1's configs: %+v", other)
	}
}

func TestMigrationRecord(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	ctx := context.Background()
	m := notify.Migration{ID: "m1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d2"}
	if _, ok, err := s.FinishedMigration(ctx, "ws1", "m1"); ok || err != nil {
		t.Fatalf("before: ok %v, err %v", ok, err)
	}
	for range 2 { // recording twice is harmless
		if err := s.RecordMigration(ctx, "ws1", m, 3, 1); err != nil {
			t.Fatal(err)
		}
	}
	got, ok, err := s.FinishedMigration(ctx, "ws1", "m1")
	if !ok || err != nil || got != m {
		t.Fatalf("after: %+v, %v, %v", got, ok, err)
	}
	if _, ok, _ := s.FinishedMigration(ctx, "ws2", "m1"); ok {
		t.Fatal("ws2 sees ws1's migration")
	}
}
