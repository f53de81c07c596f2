package svcactivity_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	svcactivity "github.com/opencollab/backend/svc-activity"
)

// seedThreeCalls adds three batches with strictly increasing timestamps
// and returns the timestamp of each batch.
func seedThreeCalls(e *env) [3]int64 {
	e.T.Helper()
	var ts [3]int64
	batches := [][]act{
		{comment("a1"), {"id": "a2", "featureType": "reaction", "actionType": "reaction.add", "actionUser": user("u2")}},
		{{"id": "b1", "featureType": "custom", "actionType": "approval", "actionUser": user("u1"), "targetEntityId": "t1"}},
		{{"id": "c1", "featureType": "crdt", "actionType": "crdt.edit", "actionUser": user("u2"), "targetEntityId": "t1"}},
	}
	docs := []string{"d1", "d1", "d2"}
	for i, b := range batches {
		if i > 0 {
			waitNextMilli(ts[i-1])
		}
		e.add(ws1, "o1", docs[i], b...)
		ts[i] = e.onlyRecord(b[0]["id"].(string)).Timestamp
	}
	e.add(ws1, "o2", "d1", comment("other-org"))
	return ts
}

func TestGetFiltersAndOrder(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	ts := seedThreeCalls(e)
	tests := []struct {
		name string
		q    map[string]any
		want []string
	}{
		{"default newest first", map[string]any{}, []string{"c1", "b1", "a2", "a1"}},
		{"asc", map[string]any{"order": "asc"}, []string{"a1", "a2", "b1", "c1"}},
		{"desc", map[string]any{"order": "desc"}, []string{"c1", "b1", "a2", "a1"}},
		{"documentId", map[string]any{"documentId": "d2"}, []string{"c1"}},
		{"targetEntityId", map[string]any{"targetEntityId": "t1"}, []string{"c1", "b1"}},
		{"userId", map[string]any{"userId": "u2"}, []string{"c1", "a2"}},
		{"featureTypes", map[string]any{"featureTypes": []string{"comment", "custom"}}, []string{"b1", "a1"}},
		{"actionTypes", map[string]any{"actionTypes": []string{"crdt.edit", "reaction.add"}}, []string{"c1", "a2"}},
		{"activityIds", map[string]any{"activityIds": []string{"a1", "c1", "other-org", "nope"}}, []string{"c1", "a1"}},
		{"combined", map[string]any{"userId": "u2", "targetEntityId": "t1"}, []string{"c1"}},
		{"time range inclusive", map[string]any{"startTime": ts[1], "endTime": ts[1]}, []string{"b1"}},
		{"from a time", map[string]any{"startTime": ts[1], "order": "asc"}, []string{"b1", "c1"}},
		{"until a time", map[string]any{"endTime": ts[1]}, []string{"b1", "a2", "a1"}},
		{"nothing matches", map[string]any{"documentId": "nope"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.q["organizationId"] = "o1"
			page, next := e.get(ws1, tt.q)
			if !slices.Equal(ids(page), tt.want) || next != "" {
				t.Fatalf("got %v (token %q), want %v", ids(page), next, tt.want)
			}
		})
	}
}

func TestGetPagesWithoutGapsOrDuplicates(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	// Seven records of one call share a timestamp (ties broken by id), two
	// more come later.
	var acts []act
	for _, id := range []string{"r5", "r1", "r7", "r3", "r2", "r6", "r4"} {
		acts = append(acts, comment(id))
	}
	e.add(ws1, "o1", "d1", acts...)
	waitNextMilli(e.onlyRecord("r1").Timestamp)
	e.add(ws1, "o1", "d1", comment("s1"), comment("s0"))

	for _, order := range []string{"asc", "desc"} {
		t.Run(order, func(t *testing.T) {
			q := map[string]any{"organizationId": "o1", "order": order, "pageSize": 3}
			var all []string
			var sizes []int
			token := ""
			for range 5 {
				if token != "" {
					q["pageToken"] = token
				}
				page, next := e.get(ws1, q)
				all = append(all, ids(page)...)
				sizes = append(sizes, len(page))
				if token = next; token == "" {
					break
				}
				if len(sizes) == 1 {
					// A record added after the first page lands before the
					// cursor (desc) or after the data (asc): never a duplicate.
					e.add(ws1, "o1", "d1", comment("late-"+order))
				}
			}
			// asc sees its own late record at the end; desc (run second)
			// sees asc's first and not its own.
			want := []string{"r1", "r2", "r3", "r4", "r5", "r6", "r7", "s0", "s1", "late-asc"}
			if order == "desc" {
				slices.Reverse(want)
			}
			if !slices.Equal(all, want) {
				t.Fatalf("pages %v joined to %v, want %v", sizes, all, want)
			}
			if !slices.Equal(sizes[:3], []int{3, 3, 3}) {
				t.Fatalf("page sizes %v", sizes)
			}
		})
	}
}

func TestPageTokenIsBoundToQueryAndWorkspace(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	e.add(ws1, "o1", "d1", comment("a1"), comment("a2"), comment("a3"))
	e.add(ws2, "o1", "d1", comment("a1"), comment("a2"), comment("a3"))
	_, token := e.get(ws1, map[string]any{"organizationId": "o1", "pageSize": 1})
	if token == "" {
		t.Fatal("first of three pages has no token")
	}
	misuse := []struct {
		name      string
		principal string
		q         map[string]any
	}{
		{"other workspace", ws2, map[string]any{"organizationId": "o1"}},
		{"other filter", ws1, map[string]any{"organizationId": "o1", "documentId": "d1"}},
		{"other order", ws1, map[string]any{"organizationId": "o1", "order": "asc"}},
		{"other organization", ws1, map[string]any{"organizationId": "o2"}},
	}
	for _, m := range misuse {
		t.Run(m.name, func(t *testing.T) {
			m.q["pageToken"] = token
			e.Fails(m.principal, "/v2/activities/get", m.q, http.StatusBadRequest, "INVALID_ARGUMENT")
		})
	}
	// Changing only the page size is allowed.
	page, _ := e.get(ws1, map[string]any{"organizationId": "o1", "pageSize": 5, "pageToken": token})
	if len(page) != 2 {
		t.Fatalf("rest of the pages: %v", ids(page))
	}
}

func TestGetInvalid(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	tests := []struct {
		name  string
		q     map[string]any
		field string
	}{
		{"no organizationId", map[string]any{}, "organizationId"},
		{"unknown feature type", map[string]any{"organizationId": "o1", "featureTypes": []string{"comment", "huddle"}}, "featureTypes[1]"},
		{"unknown order", map[string]any{"organizationId": "o1", "order": "sideways"}, "order"},
		{"pageSize 0", map[string]any{"organizationId": "o1", "pageSize": 0}, "pageSize"},
		{"pageSize over max", map[string]any{"organizationId": "o1", "pageSize": 1001}, "pageSize"},
		{"start after end", map[string]any{"organizationId": "o1", "startTime": 20, "endTime": 10}, "startTime"},
		{"negative time", map[string]any{"organizationId": "o1", "startTime": -1}, "startTime"},
		{"unknown token", map[string]any{"organizationId": "o1", "pageToken": "nope"}, "pageToken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(ws1, "/v2/activities/get", tt.q, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
}
