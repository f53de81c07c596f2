package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/service/servicetest"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-activity/internal/activity"
	"github.com/opencollab/backend/svc-activity/internal/store"
)

func newStore(t *testing.T) *store.Mongo {
	return servicetest.Indexed(t, store.NewMongo(testenv.Mongo(t)))
}

// rec is a minimal valid record of org o1, document d1.
func rec(id string, ts int64) activity.Record {
	return activity.Record{
		OrganizationID: "o1", DocumentID: "d1", ID: id, FeatureType: "comment", ActionType: "comment.add",
		ActionUser: json.RawMessage(`{"userId":"u1"}`), ActionUserID: "u1", Timestamp: ts,
	}
}

func mustReplace(t *testing.T, s *store.Mongo, ws string, recs ...activity.Record) {
	t.Helper()
	if err := s.ReplaceAll(context.Background(), ws, recs); err != nil {
		t.Fatal(err)
	}
}

func ids(recs []activity.Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}

func TestReplaceAllRoundTripsFreeJSONExactly(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	r := rec("a1", 100)
	r.ActionUser = json.RawMessage(`{"userId":"u1","name":"Ann","z":1,"a":true}`)
	r.Changes = json.RawMessage(`{"status":{"from":"open","to":"resolved"}}`)
	r.EntityData = json.RawMessage(`{"b":1.0,"a":[1,2.50,"x",null],"n":12345678901234567890,"html":"<b>&</b>"}`)
	r.EntityTargetData = json.RawMessage(`"just a string"`)
	r.DisplayMessageTemplateData = json.RawMessage(`{"user":"Ann"}`)
	r.TargetEntityID, r.TargetSubEntityID, r.ActionIcon = "t1", "s1", "icon"
	r.DisplayMessageTemplate, r.IsActivityResolverUsed = "{{user}} commented", true
	mustReplace(t, s, "ws1", r)

	got, err := s.FindByIDs(ctx, "ws1", "o1", []string{"a1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("found %d records, want 1", len(got))
	}
	gotJSON, _ := json.Marshal(got[0])
	wantJSON, _ := json.Marshal(r)
	if string(gotJSON) != string(wantJSON) {
		t.Fatalf("read back\n%s\nwant\n%s", gotJSON, wantJSON)
	}
	if string(got[0].EntityData) != string(r.EntityData) {
		t.Fatalf("entityData %s, want byte-identical %s", got[0].EntityData, r.EntityData)
	}
}

func TestReplaceAllOverwritesWholesale(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	first := rec("a1", 100)
	first.EntityData, first.TargetEntityID = json.RawMessage(`{"v":1}`), "t1"
	mustReplace(t, s, "ws1", first, rec("a2", 100))

	second := rec("a1", 200)
	second.ActionType = "comment.update"
	mustReplace(t, s, "ws1", second)

	got, err := s.FindByIDs(ctx, "ws1", "o1", []string{"a1", "a2"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d records after overwrite, want 2", len(got))
	}
	for _, r := range got {
		if r.ID == "a1" && (r.ActionType != "comment.update" || r.Timestamp != 200 || r.EntityData != nil || r.TargetEntityID != "") {
			t.Fatalf("a1 not replaced wholesale: %+v", r)
		}
	}
}

func TestImmutableRecordsAreNotTouched(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	locked := rec("locked", 100)
	locked.Immutable = true
	mustReplace(t, s, "ws1", locked, rec("free", 100))

	// A batch that would overwrite the immutable record names it and
	// writes nothing, not even its other records.
	var locked1 *activity.ImmutableError
	err := s.ReplaceAll(ctx, "ws1", []activity.Record{rec("free", 150), rec("locked", 150), rec("missing", 150)})
	if !errors.As(err, &locked1) || locked1.ID != "locked" {
		t.Fatalf("batch over an immutable record: err = %v; want ImmutableError for locked", err)
	}
	if got, _ := s.FindByIDs(ctx, "ws1", "o1", []string{"free", "missing"}); len(got) != 1 || got[0].Timestamp != 100 {
		t.Fatalf("the refused batch wrote: %+v", got)
	}
	// The same id in another workspace is another record.
	if err := s.ReplaceAll(ctx, "ws2", []activity.Record{rec("locked", 150)}); err != nil {
		t.Fatalf("record of another workspace: %v", err)
	}

	over := rec("locked", 200)
	if err := s.ReplaceAll(ctx, "ws1", []activity.Record{over}); !errors.Is(err, activity.ErrImmutable) {
		t.Fatalf("overwrite of an immutable record: err = %v, want ErrImmutable", err)
	}
	text := "changed"
	if err := s.ApplyPatches(ctx, "ws1", "o1", []activity.Patch{{ID: "locked", ActionIcon: &text}}); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteByIDs(ctx, "ws1", "o1", []string{"locked", "free"}); err != nil {
		t.Fatal(err)
	}
	left, err := s.FindByIDs(ctx, "ws1", "o1", []string{"locked", "free"})
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].ID != "locked" || left[0].Timestamp != 100 || left[0].ActionIcon != "" {
		t.Fatalf("after overwrite, patch and delete: %+v, want the untouched immutable record only", left)
	}
}

func TestApplyPatches(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	base := rec("a1", 100)
	base.EntityData, base.ActionIcon, base.DisplayMessageTemplate = json.RawMessage(`{"v":1}`), "old", "tmpl"
	mustReplace(t, s, "ws1", base, rec("a2", 100))

	icon, empty := "new", ""
	patches := []activity.Patch{
		{ID: "a1", EntityData: json.RawMessage(`null`), ActionIcon: &icon, DisplayMessageTemplate: &empty,
			Changes: json.RawMessage(`{"f":{"from":1,"to":2}}`)},
		{ID: "a2"}, // sets nothing
	}
	if err := s.ApplyPatches(ctx, "ws1", "o1", patches); err != nil {
		t.Fatal(err)
	}
	// The same id in another organization is not this record.
	if err := s.ApplyPatches(ctx, "ws1", "o2", []activity.Patch{{ID: "a1", ActionIcon: &empty}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.FindByIDs(ctx, "ws1", "o1", []string{"a1"})
	if err != nil {
		t.Fatal(err)
	}
	r := got[0]
	if r.EntityData != nil || r.ActionIcon != "new" || r.DisplayMessageTemplate != "" ||
		string(r.Changes) != `{"f":{"from":1,"to":2}}` || r.Timestamp != 100 || r.ActionType != "comment.add" {
		t.Fatalf("patched record %+v", r)
	}
}

func TestListOrderPagingAndFilters(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	r := func(id string, ts int64, mod func(*activity.Record)) activity.Record {
		x := rec(id, ts)
		if mod != nil {
			mod(&x)
		}
		return x
	}
	mustReplace(t, s, "ws1",
		r("b", 100, nil),
		r("a", 100, func(x *activity.Record) { x.DocumentID = "d2" }),
		r("c", 200, func(x *activity.Record) { x.TargetEntityID = "t1"; x.FeatureType = "custom" }),
		r("d", 300, func(x *activity.Record) {
			x.ActionUserID = "u2"
			x.ActionType = "reaction.add"
			x.FeatureType = "reaction"
		}),
		r("e", 300, func(x *activity.Record) { x.OrganizationID = "o2" }),
	)
	mustReplace(t, s, "ws2", r("z", 150, nil))

	start, end := int64(100), int64(200)
	tests := []struct {
		name string
		q    activity.ListQuery
		want []string
	}{
		{"asc with id ties", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1"}, Limit: 10}, []string{"a", "b", "c", "d"}},
		{"desc with id ties", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1"}, Desc: true, Limit: 10}, []string{"d", "c", "b", "a"}},
		{"limit", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1"}, Limit: 2}, []string{"a", "b"}},
		{"asc after a tie", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1"}, After: &activity.Cursor{Timestamp: 100, ID: "a"}, Limit: 10}, []string{"b", "c", "d"}},
		{"desc after a tie", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1"}, Desc: true, After: &activity.Cursor{Timestamp: 100, ID: "b"}, Limit: 10}, []string{"a"}},
		{"document", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", DocumentID: "d2"}, Limit: 10}, []string{"a"}},
		{"target", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", TargetEntityID: "t1"}, Limit: 10}, []string{"c"}},
		{"user", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", UserID: "u2"}, Limit: 10}, []string{"d"}},
		{"feature types", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", FeatureTypes: []string{"custom", "reaction"}}, Limit: 10}, []string{"c", "d"}},
		{"action types", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", ActionTypes: []string{"reaction.add"}}, Limit: 10}, []string{"d"}},
		{"ids", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", IDs: []string{"b", "e", "z"}}, Limit: 10}, []string{"b"}},
		{"time window inclusive", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", StartTime: &start, EndTime: &end}, Limit: 10}, []string{"a", "b", "c"}},
		{"start only", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", StartTime: &end}, Limit: 10}, []string{"c", "d"}},
		{"end only", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o1", EndTime: &start}, Limit: 10}, []string{"a", "b"}},
		{"other organization", activity.ListQuery{Filter: activity.Filter{OrganizationID: "o2"}, Limit: 10}, []string{"e"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.List(ctx, "ws1", tt.q)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), tt.want) {
				t.Fatalf("got %v, want %v", ids(got), tt.want)
			}
		})
	}
}

func TestFindMatchingAndDelete(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	other := rec("b", 100)
	other.DocumentID = "d2"
	mustReplace(t, s, "ws1", rec("a", 100), other, rec("c", 100))
	mustReplace(t, s, "ws2", rec("a", 100))

	got, err := s.FindMatching(ctx, "ws1", activity.Filter{OrganizationID: "o1", DocumentID: "d1", IDs: []string{"a", "b"}})
	if err != nil || !slices.Equal(ids(got), []string{"a"}) {
		t.Fatalf("FindMatching = %v, %v; want [a]", ids(got), err)
	}
	if err := s.DeleteByIDs(ctx, "ws1", "o1", []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	left, _ := s.FindMatching(ctx, "ws1", activity.Filter{OrganizationID: "o1"})
	if !slices.Equal(sorted(ids(left)), []string{"c"}) {
		t.Fatalf("ws1 after delete: %v, want [c]", ids(left))
	}
	if left, _ := s.FindMatching(ctx, "ws2", activity.Filter{OrganizationID: "o1"}); len(left) != 1 {
		t.Fatalf("ws2 lost records to a ws1 delete: %v", ids(left))
	}
}

func TestMoveDocumentIsIdempotent(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	mustReplace(t, s, "ws1", rec("a", 100), rec("b", 100))
	mustReplace(t, s, "ws2", rec("a", 100))

	steps := []struct {
		name      string
		wantMoved int64
	}{{"first run", 2}, {"second run", 0}}
	for _, st := range steps {
		moved, err := s.MoveDocument(ctx, "ws1", "o1", "d1", "d9")
		if err != nil || moved != st.wantMoved {
			t.Fatalf("%s: moved %d, %v; want %d", st.name, moved, err, st.wantMoved)
		}
	}
	for _, c := range []struct {
		ws, doc string
		want    bool
	}{{"ws1", "d1", false}, {"ws1", "d9", true}, {"ws2", "d1", true}, {"ws2", "d9", false}} {
		if got, err := s.HasDocumentData(ctx, c.ws, "o1", c.doc); err != nil || got != c.want {
			t.Fatalf("HasDocumentData(%s, %s) = %v, %v; want %v", c.ws, c.doc, got, err, c.want)
		}
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
