package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// e3ActivityIDs reads the ids of an activities/get of org with the extra
// filters, in the order returned.
func (s *stack) e3ActivityIDs(c creds, org string, filters map[string]any) []string {
	s.t.Helper()
	q := map[string]any{"organizationId": org}
	for k, v := range filters {
		q[k] = v
	}
	return field(s.t, s.okAs(c, "/v2/activities/get", q), "id")
}

// e3ActivityByID reads one record of org by id (nil when absent).
func (s *stack) e3ActivityByID(c creds, org, id string) map[string]any {
	s.t.Helper()
	got := objects(s.t, s.okAs(c, "/v2/activities/get", map[string]any{"organizationId": org, "activityIds": []string{id}}))
	switch len(got) {
	case 0:
		return nil
	case 1:
		return got[0]
	}
	s.t.Fatalf("activity %s returned %d times: %v", id, len(got), got)
	return nil
}

func TestActivitiesThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	add := func(doc string, items ...map[string]any) reply {
		t.Helper()
		list := make([]any, len(items))
		for i, it := range items {
			list[i] = it
		}
		return s.call("/v2/activities/add", map[string]any{"organizationId": org, "documentId": doc, "activities": list})
	}
	sorted := func(ids []string) []string { out := slices.Clone(ids); slices.Sort(out); return out }

	t.Run("add then get", func(t *testing.T) {
		r := add("d1", e3ActivityIn("a1", "comment", "comment.add", "ann"), e3ActivityIn("a2", "reaction", "reaction.add", "bob"),
			e3ActivityIn("a3", "custom", "approval.granted", "ann"))
		expectOK(t, r)
		if d := r.DataMap(); d["success"] != true || d["message"] == "" || len(d) != 2 {
			t.Fatalf("add result.data = %s, want {success: true, message}", r.Raw)
		}
		if got := sorted(s.e3ActivityIDs(s.ws, org, nil)); !slices.Equal(got, []string{"a1", "a2", "a3"}) {
			t.Fatalf("records %v", got)
		}
		a3 := s.e3ActivityByID(s.ws, org, "a3")
		meta, _ := a3["metadata"].(map[string]any)
		user, _ := a3["actionUser"].(map[string]any)
		ts, _ := a3["timestamp"].(float64)
		if a3["featureType"] != "custom" || a3["actionType"] != "approval.granted" || a3["targetEntityId"] != "target-a3" ||
			meta["documentId"] != "d1" || meta["organizationId"] != org || user["userId"] != "ann" || user["email"] != "ann@example.com" ||
			a3["immutable"] != false || ts <= 0 {
			t.Fatalf("record a3 = %v", a3)
		}
	})

	t.Run("get filters", func(t *testing.T) {
		for _, c := range []struct {
			filters map[string]any
			want    []string
		}{
			{map[string]any{"userId": "ann"}, []string{"a1", "a3"}},
			{map[string]any{"featureTypes": []string{"reaction", "custom"}}, []string{"a2", "a3"}},
			{map[string]any{"actionTypes": []string{"comment.add"}}, []string{"a1"}},
			{map[string]any{"targetEntityId": "target-a3"}, []string{"a3"}},
			{map[string]any{"activityIds": []string{"a2", "ghost"}}, []string{"a2"}},
			{map[string]any{"documentId": "d1", "userId": "bob"}, []string{"a2"}},
			{map[string]any{"documentId": "d2"}, nil},
			{map[string]any{"startTime": 0, "endTime": time.Now().Add(time.Hour).UnixMilli()}, []string{"a1", "a2", "a3"}},
			{map[string]any{"startTime": time.Now().Add(time.Hour).UnixMilli()}, nil},
		} {
			if got := sorted(s.e3ActivityIDs(s.ws, org, c.filters)); !slices.Equal(got, c.want) {
				t.Errorf("get %v = %v, want %v", c.filters, got, c.want)
			}
		}
		s.fails("/v2/activities/get", map[string]any{"organizationId": org, "startTime": 2, "endTime": 1}, "INVALID_ARGUMENT", 400)
		if got := s.e3ActivityIDs(s.ws, "other-org", nil); len(got) != 0 {
			t.Fatalf("another organization lists %v", got)
		}
	})

	t.Run("add with an existing id overwrites the record", func(t *testing.T) {
		before := s.e3ActivityByID(s.ws, org, "a1")
		again := e3ActivityIn("a1", "comment", "comment.edit", "carol")
		again["entityData"] = map[string]any{"text": "edited"}
		expectOK(t, add("d1", again))
		got := s.e3ActivityByID(s.ws, org, "a1")
		user, _ := got["actionUser"].(map[string]any)
		if got["actionType"] != "comment.edit" || user["userId"] != "carol" || e3JSON(got["entityData"]) != `{"text":"edited"}` {
			t.Fatalf("overwritten a1 = %v", got)
		}
		if got["timestamp"].(float64) < before["timestamp"].(float64) {
			t.Fatalf("overwrite moved the timestamp back: %v → %v", before["timestamp"], got["timestamp"])
		}
		if ids := sorted(s.e3ActivityIDs(s.ws, org, nil)); !slices.Equal(ids, []string{"a1", "a2", "a3"}) {
			t.Fatalf("overwrite left %v", ids)
		}
		if ids := s.e3ActivityIDs(s.ws, org, map[string]any{"userId": "ann"}); !slices.Equal(ids, []string{"a3"}) {
			t.Fatalf("the old a1 of ann is still found: %v", ids)
		}
	})

	t.Run("add refuses invalid input and writes nothing of the batch", func(t *testing.T) {
		noTarget := e3ActivityIn("bad", "custom", "approval.granted", "ann")
		delete(noTarget, "targetEntityId")
		good := e3ActivityIn("a4", "comment", "comment.add", "ann")
		noUser := e3ActivityIn("a5", "comment", "comment.add", "ann")
		delete(noUser, "actionUser")
		tooMany := make([]map[string]any, 501)
		for i := range tooMany {
			tooMany[i] = e3ActivityIn(fmt.Sprintf("m%d", i), "comment", "comment.add", "ann")
		}
		for name, r := range map[string]reply{
			"custom without targetEntityId": add("d1", good, noTarget),
			"unknown featureType":           add("d1", good, e3ActivityIn("a6", "telepathy", "x", "ann")),
			"without actionUser":            add("d1", good, noUser),
			"501 activities":                add("d1", tooMany...),
			"without documentId": s.call("/v2/activities/add", map[string]any{"organizationId": org,
				"activities": []any{good}}),
			"without organizationId": s.call("/v2/activities/add", map[string]any{"documentId": "d1", "activities": []any{good}}),
		} {
			if r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Errorf("%s: got %d %s", name, r.Code, r.Raw)
			}
		}
		if ids := sorted(s.e3ActivityIDs(s.ws, org, nil)); !slices.Equal(ids, []string{"a1", "a2", "a3"}) {
			t.Fatalf("refused adds wrote: %v", ids)
		}
	})

	t.Run("update reports per id", func(t *testing.T) {
		r := s.ok("/v2/activities/update", map[string]any{"organizationId": org, "activities": []any{
			map[string]any{"id": "a2", "displayMessageTemplate": "{user} reacted", "changes": map[string]any{"icon": map[string]any{"from": "a", "to": "b"}}},
			map[string]any{"id": "ghost", "actionIcon": "x"},
		}})
		expectItems(t, r, map[string]bool{"a2": true, "ghost": false})
		a2 := s.e3ActivityByID(s.ws, org, "a2")
		if a2["displayMessageTemplate"] != "{user} reacted" || e3JSON(a2["changes"]) != `{"icon":{"from":"a","to":"b"}}` || a2["actionType"] != "reaction.add" {
			t.Fatalf("updated a2 = %v", a2)
		}
		if s.e3ActivityByID(s.ws, org, "ghost") != nil {
			t.Fatal("update created ghost")
		}
		expectItems(t, s.ok("/v2/activities/update", map[string]any{"organizationId": "other-org",
			"activities": []any{map[string]any{"id": "a2", "actionIcon": "x"}}}), map[string]bool{"a2": false})
		if got := s.e3ActivityByID(s.ws, org, "a2"); got["actionIcon"] != nil {
			t.Fatalf("update of another organization changed a2: %v", got)
		}
		s.fails("/v2/activities/update", map[string]any{"organizationId": org, "activities": []any{map[string]any{"actionIcon": "x"}}}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/activities/update", map[string]any{"organizationId": org}, "INVALID_ARGUMENT", 400)
	})

	t.Run("delete reports per id", func(t *testing.T) {
		s.fails("/v2/activities/delete", map[string]any{"organizationId": org}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/activities/delete", map[string]any{"documentId": "d1"}, "INVALID_ARGUMENT", 400)
		expectItems(t, s.ok("/v2/activities/delete", map[string]any{"organizationId": org, "activityIds": []string{"a2", "ghost"}}),
			map[string]bool{"a2": true, "ghost": false})
		if ids := sorted(s.e3ActivityIDs(s.ws, org, nil)); !slices.Equal(ids, []string{"a1", "a3"}) {
			t.Fatalf("after deleting a2: %v", ids)
		}
		expectItems(t, s.ok("/v2/activities/delete", map[string]any{"organizationId": org, "documentId": "d1", "targetEntityId": "target-a3"}),
			map[string]bool{"a3": true})
		expectItems(t, s.ok("/v2/activities/delete", map[string]any{"organizationId": org, "documentId": "d1"}), map[string]bool{"a1": true})
		if ids := s.e3ActivityIDs(s.ws, org, nil); len(ids) != 0 {
			t.Fatalf("after deleting document d1: %v", ids)
		}
	})

	t.Run("get pages across pages in both orders", func(t *testing.T) {
		var batch []map[string]any
		for i := 7; i >= 1; i-- { // one call: one timestamp, so the order is by id
			batch = append(batch, e3ActivityIn(fmt.Sprintf("p%d", i), "crdt", "crdt.edit", "ann"))
		}
		expectOK(t, add("d3", batch...))
		asc := []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7"}
		query := map[string]any{"organizationId": org, "documentId": "d3", "pageSize": 3, "order": "asc"}
		if seen, pages := collectPages(t, s, "/v2/activities/get", query, "pageToken", "id"); pages != 3 || !slices.Equal(seen, asc) {
			t.Fatalf("asc: %d pages gave %v, want 3 pages of %v", pages, seen, asc)
		}
		desc := slices.Clone(asc)
		slices.Reverse(desc)
		descQuery := map[string]any{"organizationId": org, "documentId": "d3", "pageSize": 2}
		if seen, pages := collectPages(t, s, "/v2/activities/get", descQuery, "pageToken", "id"); pages != 4 || !slices.Equal(seen, desc) {
			t.Fatalf("default (desc): %d pages gave %v, want 4 pages of %v", pages, seen, desc)
		}
		tok, _ := s.ok("/v2/activities/get", query).Result["pageToken"].(string)
		if tok == "" {
			t.Fatal("first page has no pageToken")
		}
		s.fails("/v2/activities/get", with(with(query, "pageToken", tok), "order", "desc"), "INVALID_ARGUMENT", 400)
		s.fails("/v2/activities/get", with(with(query, "pageToken", tok), "userId", "bob"), "INVALID_ARGUMENT", 400)
		s.fails("/v2/activities/get", with(query, "pageToken", "not-a-token"), "INVALID_ARGUMENT", 400)
		if got := field(t, s.ok("/v2/activities/get", with(query, "pageToken", tok)), "id"); !slices.Equal(got, asc[3:6]) {
			t.Fatalf("token reused in its own query: %v", got)
		}
		if got := field(t, s.ok("/v2/activities/get", with(with(query, "pageToken", tok), "pageSize", 10)), "id"); !slices.Equal(got, asc[3:]) {
			t.Fatalf("token with another pageSize: %v", got)
		}
		s.fails("/v2/activities/get", with(query, "pageSize", 0), "INVALID_ARGUMENT", 400)
		s.fails("/v2/activities/get", with(query, "pageSize", 1001), "INVALID_ARGUMENT", 400)
		s.fails("/v2/activities/get", map[string]any{"documentId": "d3"}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/activities/get", map[string]any{"organizationId": org, "featureTypes": []string{"telepathy"}}, "INVALID_ARGUMENT", 400)
	})
}
