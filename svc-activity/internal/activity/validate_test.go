package activity

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/api"
)

func TestNewRecord(t *testing.T) {
	valid := NewActivity{FeatureType: "comment", ActionType: "comment.add", ActionUser: json.RawMessage(`{"userId":"u1","name":"Ann"}`)}
	with := func(mod func(*NewActivity)) NewActivity {
		a := valid
		mod(&a)
		return a
	}
	tests := []struct {
		name      string
		in        NewActivity
		wantInMsg string // empty: valid
	}{
		{"minimal", valid, ""},
		{"custom with target", with(func(a *NewActivity) { a.FeatureType, a.TargetEntityID = "custom", "t1" }), ""},
		{"custom without target", with(func(a *NewActivity) { a.FeatureType = "custom" }), "activities[3].targetEntityId is required when featureType is custom"},
		{"custom with blank target", with(func(a *NewActivity) { a.FeatureType, a.TargetEntityID = "custom", "  " }), "targetEntityId is required"},
		{"actionUser null", with(func(a *NewActivity) { a.ActionUser = json.RawMessage(`null`) }), "activities[3].actionUser is required"},
		{"actionUser string", with(func(a *NewActivity) { a.ActionUser = json.RawMessage(`"u1"`) }), "actionUser must be an object"},
		{"actionUser without userId", with(func(a *NewActivity) { a.ActionUser = json.RawMessage(`{"name":"Ann"}`) }), "actionUser.userId is required"},
		{"actionUser blank userId", with(func(a *NewActivity) { a.ActionUser = json.RawMessage(`{"userId":" "}`) }), "actionUser.userId is required"},
		{"actionUser numeric userId", with(func(a *NewActivity) { a.ActionUser = json.RawMessage(`{"userId":7}`) }), "actionUser.userId has the wrong type"},
		{"changes array", with(func(a *NewActivity) { a.Changes = json.RawMessage(`[1]`) }), "activities[3].changes must be an object"},
		{"changes value not an object", with(func(a *NewActivity) { a.Changes = json.RawMessage(`{"status":"x"}`) }), "changes.status must be an object"},
		{"changes ok", with(func(a *NewActivity) { a.Changes = json.RawMessage(`{"status":{"from":null,"to":"x"}}`) }), ""},
		{"template data array", with(func(a *NewActivity) { a.DisplayMessageTemplateData = json.RawMessage(`[]`) }), "displayMessageTemplateData must be an object"},
		{"entityData any JSON", with(func(a *NewActivity) {
			a.EntityData, a.EntityTargetData = json.RawMessage(`42`), json.RawMessage(`[true]`)
		}), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := newRecord("activities[3]", tt.in)
			if tt.wantInMsg == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				if r.ActionUserID != "u1" || !strings.HasPrefix(r.ID, idPrefix) {
					t.Fatalf("record %+v", r)
				}
				return
			}
			if !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), tt.wantInMsg) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT containing %q", err, tt.wantInMsg)
			}
		})
	}
}

func TestNewRecordCompactsFreeJSONOnly(t *testing.T) {
	in := NewActivity{
		ID: "mine", FeatureType: "crdt", ActionType: "crdt.update",
		ActionUser: json.RawMessage(" { \"userId\" : \"u1\" } "),
		EntityData: json.RawMessage("{ \"b\" : 1.0 ,\n \"a\" : \"x  y\" }"),
	}
	r, err := newRecord("activities[0]", in)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "mine" || string(r.ActionUser) != `{"userId":"u1"}` || string(r.EntityData) != `{"b":1.0,"a":"x  y"}` {
		t.Fatalf("record %+v: id %q user %s entity %s", r, r.ID, r.ActionUser, r.EntityData)
	}
	if r.Changes != nil || r.DisplayMessageTemplateData != nil {
		t.Fatal("absent free fields must stay nil")
	}
}

func TestGeneratedIDsDiffer(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		r, err := newRecord("a", NewActivity{FeatureType: "comment", ActionType: "x", ActionUser: json.RawMessage(`{"userId":"u"}`)})
		if err != nil {
			t.Fatal(err)
		}
		if seen[r.ID] {
			t.Fatalf("id %s generated twice", r.ID)
		}
		seen[r.ID] = true
	}
}

func TestLastPerID(t *testing.T) {
	in := []Record{{ID: "a", ActionType: "1"}, {ID: "b"}, {ID: "a", ActionType: "2"}, {ID: "c"}}
	got := lastPerID(in)
	var order []string
	for _, r := range got {
		order = append(order, r.ID)
	}
	if !slices.Equal(order, []string{"a", "b", "c"}) || got[0].ActionType != "2" {
		t.Fatalf("lastPerID = %+v", got)
	}
}

func TestMergePatches(t *testing.T) {
	one, two := "one", "two"
	in := []Patch{
		{ID: "a", ActionIcon: &one, EntityData: json.RawMessage(`{ "v" : 1 }`)},
		{ID: "b", Changes: json.RawMessage(`null`)},
		{ID: "a", ActionIcon: &two, DisplayMessageTemplateData: json.RawMessage(`{"k":"v"}`)},
	}
	got, err := mergePatches(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].ID != "a" || got[1].ID != "b" {
		t.Fatalf("merged %+v", got)
	}
	a := got[0]
	if *a.ActionIcon != "two" || string(a.EntityData) != `{"v":1}` || string(a.DisplayMessageTemplateData) != `{"k":"v"}` || a.Changes != nil {
		t.Fatalf("merged a = %+v", a)
	}
	if !IsClear(got[1].Changes) || got[1].EntityData != nil {
		t.Fatalf("null must clear and absent stay absent: %+v", got[1])
	}
	if _, err := mergePatches([]Patch{{ID: "a", Changes: json.RawMessage(`"x"`)}}); !api.IsStatus(err, api.InvalidArgument) ||
		!strings.Contains(err.Error(), "activities[0].changes") {
		t.Fatalf("bad changes: err = %v", err)
	}
}
