package svcactivity_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	svcactivity "github.com/opencollab/backend/svc-activity"
)

func TestUpdate(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	base := comment("a1")
	base["entityData"] = map[string]any{"v": 1}
	base["actionIcon"] = "old"
	base["targetEntityId"] = "t1"
	e.add(ws1, "o1", "d1", base, comment("a2"))
	e.add(ws1, "o2", "d1", comment("in-o2"))
	ts := e.onlyRecord("a1").Timestamp

	var res map[string]itemResult
	r := e.OK(ws1, "/v2/activities/update", map[string]any{"organizationId": "o1", "activities": []map[string]any{
		{"id": "a1", "changes": map[string]any{"status": map[string]any{"from": "a", "to": "b"}},
			"entityTargetData": []int{1}, "displayMessageTemplate": "{{x}} did it",
			"displayMessageTemplateData": map[string]any{"x": "Ann"}, "actionIcon": "new"},
		{"id": "a2", "entityData": nil}, // null clears (there is nothing to clear)
		{"id": "missing", "actionIcon": "x"},
		{"id": "in-o2", "actionIcon": "x"}, // another organization's record
	}}, &res)
	if r.Result.Message != "Activities updated." {
		t.Fatalf("message %q", r.Result.Message)
	}
	want := map[string]itemResult{
		"a1":      {true, "Activity updated."},
		"a2":      {true, "Activity updated."},
		"missing": {false, "Activity not found."},
		"in-o2":   {false, "Activity not found."},
	}
	for id, w := range want {
		if res[id] != w {
			t.Errorf("%s: %+v, want %+v", id, res[id], w)
		}
	}
	if len(res) != len(want) {
		t.Errorf("results %v", res)
	}

	v := e.onlyRecord("a1")
	if string(v.Changes) != `{"status":{"from":"a","to":"b"}}` || string(v.EntityTargetData) != `[1]` ||
		v.DisplayMessageTemplate != "{{x}} did it" || string(v.DisplayMessageTemplateData) != `{"x":"Ann"}` ||
		v.ActionIcon != "new" {
		t.Fatalf("updated fields: %+v", v)
	}
	if string(v.EntityData) != `{"v":1}` || v.TargetEntityID != "t1" || v.Timestamp != ts || v.ActionType != "comment.add" {
		t.Fatalf("fields not in the update changed: %+v", v)
	}

	// null clears a free-form field; an empty string clears a text field.
	e.OK(ws1, "/v2/activities/update", map[string]any{"organizationId": "o1", "activities": []map[string]any{
		{"id": "a1", "entityData": nil, "actionIcon": ""},
	}}, nil)
	if v := e.onlyRecord("a1"); v.EntityData != nil || v.ActionIcon != "" || v.Changes == nil {
		t.Fatalf("after clearing: %+v", v)
	}
}

func TestUpdateInvalid(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	e.add(ws1, "o1", "d1", comment("a1"))
	tests := []struct {
		name  string
		data  map[string]any
		field string
	}{
		{"no organizationId", map[string]any{"activities": []map[string]any{{"id": "a1"}}}, "organizationId"},
		{"no activities", map[string]any{"organizationId": "o1"}, "activities"},
		{"no id", map[string]any{"organizationId": "o1", "activities": []map[string]any{{"id": "a1"}, {"actionIcon": "x"}}}, "activities[1].id"},
		{"changes not an object", map[string]any{"organizationId": "o1", "activities": []map[string]any{{"id": "a1", "changes": "x"}}}, "activities[0].changes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(ws1, "/v2/activities/update", tt.data, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
	if v := e.onlyRecord("a1"); v.Changes != nil || v.ActionIcon != "" {
		t.Fatalf("invalid updates changed the record: %+v", v)
	}
}

func TestDelete(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	withTarget := func(id, target string) act { a := comment(id); a["targetEntityId"] = target; return a }
	e.add(ws1, "o1", "d1", withTarget("a1", "t1"), withTarget("a2", "t2"), comment("a3"))
	e.add(ws1, "o1", "d2", withTarget("b1", "t1"), comment("b2"), comment("b3"))
	e.add(ws1, "o2", "d1", comment("other-org"))

	r := e.Fails(ws1, "/v2/activities/delete", map[string]any{"organizationId": "o1"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	for _, f := range []string{"documentId", "targetEntityId", "activityIds"} {
		if !strings.Contains(r.Error.Message, f) {
			t.Fatalf("message %q does not name %s", r.Error.Message, f)
		}
	}
	e.Fails(ws1, "/v2/activities/delete", map[string]any{"documentId": "d1"}, http.StatusBadRequest, "INVALID_ARGUMENT")

	steps := []struct {
		name string
		sel  map[string]any
		want map[string]itemResult
		left []string // ids of o1 afterwards, ascending
	}{
		{"target and document combined", map[string]any{"targetEntityId": "t1", "documentId": "d2"},
			map[string]itemResult{"b1": {true, "Activity deleted."}},
			[]string{"a1", "a2", "a3", "b2", "b3"}},
		{"ids, some missing or elsewhere", map[string]any{"activityIds": []string{"b2", "nope", "other-org", "b1"}},
			map[string]itemResult{"b2": {true, "Activity deleted."}, "nope": {false, "Activity not found."},
				"other-org": {false, "Activity not found."}, "b1": {false, "Activity not found."}},
			[]string{"a1", "a2", "a3", "b3"}},
		{"ids outside the document", map[string]any{"activityIds": []string{"b3", "a1"}, "documentId": "d1"},
			map[string]itemResult{"a1": {true, "Activity deleted."}, "b3": {false, "Activity not found."}},
			[]string{"a2", "a3", "b3"}},
		{"whole document", map[string]any{"documentId": "d1"},
			map[string]itemResult{"a2": {true, "Activity deleted."}, "a3": {true, "Activity deleted."}},
			[]string{"b3"}},
		{"nothing matches", map[string]any{"targetEntityId": "t9"}, map[string]itemResult{}, []string{"b3"}},
	}
	for _, st := range steps {
		st.sel["organizationId"] = "o1"
		var res map[string]itemResult
		e.OK(ws1, "/v2/activities/delete", st.sel, &res)
		if len(res) != len(st.want) {
			t.Fatalf("%s: results %v, want %v", st.name, res, st.want)
		}
		for id, w := range st.want {
			if res[id] != w {
				t.Fatalf("%s: %s = %+v, want %+v", st.name, id, res[id], w)
			}
		}
		page, _ := e.get(ws1, map[string]any{"organizationId": "o1"})
		left := ids(page)
		slices.Sort(left)
		if !slices.Equal(left, st.left) {
			t.Fatalf("%s: left %v, want %v", st.name, left, st.left)
		}
	}
	if page, _ := e.get(ws1, map[string]any{"organizationId": "o2"}); len(page) != 1 {
		t.Fatal("deletes in o1 touched o2")
	}
}
