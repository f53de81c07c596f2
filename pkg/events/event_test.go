package events_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/events"
)

func TestNew(t *testing.T) {
	t.Parallel()
	before := time.Now().UnixMilli()
	e, err := events.New("activity.add", "activity", "ws_1", "org_1", "doc_1", map[string]any{"id": "a1"})
	if err != nil {
		t.Fatal(err)
	}
	if e.ID == "" || e.Type != "activity.add" || e.Source != "activity" || e.WorkspaceID != "ws_1" ||
		e.OrganizationID != "org_1" || e.DocumentID != "doc_1" {
		t.Fatalf("event fields: %+v", e)
	}
	if e.OccurredAt < before || e.OccurredAt > time.Now().UnixMilli() {
		t.Fatalf("occurredAt %d is not now", e.OccurredAt)
	}
	if string(e.Data) != `{"id":"a1"}` {
		t.Fatalf("data = %s", e.Data)
	}
	other, err := events.New("activity.add", "activity", "ws_1", "", "", json.RawMessage(`{"x":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if other.ID == e.ID {
		t.Fatal("two events got the same id")
	}
	if string(other.Data) != `{"x":1}` {
		t.Fatalf("raw data changed: %s", other.Data)
	}
	b, _ := json.Marshal(other)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if _, ok := m["organizationId"]; ok {
		t.Fatalf("empty organizationId is not omitted: %s", b)
	}
}

func TestNewRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, typ, source string
		data              any
	}{
		{"no type", "", "activity", nil},
		{"no source", "activity.add", "", nil},
		{"data that cannot be encoded", "activity.add", "activity", func() {}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := events.New(tt.typ, tt.source, "ws_1", "", "", tt.data); err == nil {
				t.Fatal("New succeeded")
			}
		})
	}
}

func TestStream(t *testing.T) {
	t.Parallel()
	if got := events.Stream("activity"); got != "events:activity" {
		t.Fatalf("Stream = %q", got)
	}
}
