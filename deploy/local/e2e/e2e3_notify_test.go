package e2e

import (
	"fmt"
	"slices"
	"testing"
)

// e3NotificationIDs reads the sorted ids of a v1 notifications/get of org
// with the extra filters.
func (s *stack) e3NotificationIDs(c creds, org string, filters map[string]any) []string {
	s.t.Helper()
	q := map[string]any{"organizationId": org}
	for k, v := range filters {
		q[k] = v
	}
	ids := field(s.t, s.okAs(c, "/v1/notifications/get", q), "id")
	slices.Sort(ids)
	return ids
}

// e3Notification reads one notification of org by id as user sees it (nil
// when absent).
func (s *stack) e3Notification(c creds, org, id, user string) map[string]any {
	s.t.Helper()
	q := map[string]any{"organizationId": org, "notificationIds": []string{id}}
	if user != "" {
		q["userId"] = user
	}
	got := objects(s.t, s.okAs(c, "/v1/notifications/get", q))
	if len(got) > 1 {
		s.t.Fatalf("notification %s returned %d times", id, len(got))
	}
	if len(got) == 0 {
		return nil
	}
	return got[0]
}

func TestNotificationsThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"

	t.Run("add v1 and v2", func(t *testing.T) {
		for _, r := range []reply{
			s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "n1", "ann")),
			s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "n2", "ann", "bob")),
			s.ok("/v2/notifications/add", map[string]any{"organizationId": org, "documentId": "d2", "notificationId": "n3",
				"actionUser": e3User("carol"), "isNotificationResolverUsed": true, "notificationSource": "custom",
				"notificationSourceData": map[string]any{"k": "v"}, "notifyAll": false, "notifyUsers": []any{e3User("bob")}}),
		} {
			if d := r.DataMap(); d["success"] != true || d["message"] == "" {
				t.Fatalf("add result.data = %s", r.Raw)
			}
		}
		if got := s.e3NotificationIDs(s.ws, org, nil); !slices.Equal(got, []string{"n1", "n2", "n3"}) {
			t.Fatalf("notifications %v", got)
		}
		n2 := s.e3Notification(s.ws, org, "n2", "")
		meta, _ := n2["metadata"].(map[string]any)
		actor, _ := n2["actionUser"].(map[string]any)
		if e3JSON(n2["notifyUsers"]) != `{"bob":true}` || e3JSON(n2["notifyUsersByUserId"]) != `{"bob":true}` || meta["documentId"] != "d1" ||
			meta["organizationId"] != org || actor["userId"] != "ann" || n2["displayBodyMessage"] != "Body of n2" || n2["timestamp"].(float64) <= 0 {
			t.Fatalf("n2 = %v", n2)
		}
		n3 := s.e3Notification(s.ws, org, "n3", "")
		if n3["notificationSource"] != "custom" || e3JSON(n3["notificationSourceData"]) != `{"k":"v"}` {
			t.Fatalf("n3 = %v", n3)
		}
	})

	t.Run("add refuses invalid input", func(t *testing.T) {
		noBody := e3NotificationIn(org, "d1", "x1", "ann")
		delete(noBody, "displayBodyMessage")
		noActor := e3NotificationIn(org, "d1", "x2", "ann")
		delete(noActor, "actionUser")
		for name, c := range map[string]struct {
			path string
			body map[string]any
		}{
			"v1 without displayBodyMessage":         {"/v1/notifications/add", noBody},
			"v1 ignores the resolver flag":          {"/v1/notifications/add", with(noBody, "isNotificationResolverUsed", true)},
			"v2 without displayBodyMessage":         {"/v2/notifications/add", noBody},
			"without actionUser":                    {"/v2/notifications/add", noActor},
			"notificationId with special character": {"/v1/notifications/add", e3NotificationIn(org, "d1", "bad id!", "ann")},
			"notifyAll false without recipients":    {"/v1/notifications/add", with(e3NotificationIn(org, "d1", "x3", "ann"), "notifyAll", false)},
			"without documentId":                    {"/v1/notifications/add", with(e3NotificationIn(org, "", "x4", "ann"), "documentId", "")},
		} {
			if r := s.call(c.path, c.body); r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Errorf("%s: got %d %s", name, r.Code, r.Raw)
			}
		}
		if got := s.e3NotificationIDs(s.ws, org, nil); !slices.Equal(got, []string{"n1", "n2", "n3"}) {
			t.Fatalf("refused adds wrote: %v", got)
		}
	})

	t.Run("get filters and per-user view", func(t *testing.T) {
		for _, c := range []struct {
			filters map[string]any
			want    []string
		}{
			{map[string]any{"documentId": "d1"}, []string{"n1", "n2"}},
			{map[string]any{"userId": "carol"}, []string{"n1"}}, // n1 reaches everyone; n3 was sent by carol to bob
			{map[string]any{"userId": "bob"}, []string{"n1", "n2", "n3"}},
			{map[string]any{"userId": "bob", "tab": "forYou"}, []string{"n2", "n3"}},
			{map[string]any{"notificationIds": []string{"n3", "ghost"}}, []string{"n3"}},
		} {
			if got := s.e3NotificationIDs(s.ws, org, c.filters); !slices.Equal(got, c.want) {
				t.Errorf("get %v = %v, want %v", c.filters, got, c.want)
			}
		}
		if got := field(t, s.ok("/v2/notifications/get", map[string]any{"organizationId": org, "documentId": "d1"}), "id"); len(got) != 2 {
			t.Fatalf("v2 get d1 = %v", got)
		}
		s.fails("/v2/notifications/get", map[string]any{"organizationId": org}, "INVALID_ARGUMENT", 400)
		s.fails("/v1/notifications/get", map[string]any{"organizationId": org, "notificationIds": ids("n", 31)}, "INVALID_ARGUMENT", 400)
		s.fails("/v1/notifications/get", map[string]any{"documentId": "d1"}, "INVALID_ARGUMENT", 400)
	})

	t.Run("re-adding an id replaces the notification", func(t *testing.T) {
		again := e3NotificationIn(org, "d1", "n1", "ann")
		again["displayBodyMessage"] = "again"
		s.ok("/v1/notifications/add", again)
		if got := s.e3NotificationIDs(s.ws, org, nil); !slices.Equal(got, []string{"n1", "n2", "n3"}) {
			t.Fatalf("re-add left %v", got)
		}
		if n1 := s.e3Notification(s.ws, org, "n1", ""); n1["displayBodyMessage"] != "again" {
			t.Fatalf("re-added n1 = %v", n1)
		}
	})

	t.Run("update reports per id", func(t *testing.T) {
		r := s.ok("/v1/notifications/update", map[string]any{"organizationId": org, "notifications": []any{
			map[string]any{"id": "n2", "readByUserIds": []string{"bob"}},
			map[string]any{"id": "ghost", "displayBodyMessage": "x"},
		}})
		expectItems(t, r, map[string]bool{"n2": true, "ghost": false})
		if n2 := s.e3Notification(s.ws, org, "n2", "bob"); n2["isRead"] != true {
			t.Fatalf("n2 for bob after marking read = %v", n2)
		}
		if got := s.e3NotificationIDs(s.ws, org, map[string]any{"userId": "bob", "tab": "forYou"}); !slices.Equal(got, []string{"n3"}) {
			t.Fatalf("forYou of bob after reading n2 = %v", got)
		}
		// v2, one object instead of an array.
		expectItems(t, s.ok("/v2/notifications/update", map[string]any{"organizationId": org,
			"notifications": map[string]any{"id": "n1", "displayBodyMessage": "changed"}}), map[string]bool{"n1": true})
		if n1 := s.e3Notification(s.ws, org, "n1", ""); n1["displayBodyMessage"] != "changed" {
			t.Fatalf("n1 after update = %v", n1)
		}
		// The filters narrow what may change: n1 is not on d2.
		expectItems(t, s.ok("/v2/notifications/update", map[string]any{"organizationId": org, "documentId": "d2",
			"notifications": []any{map[string]any{"id": "n1", "displayBodyMessage": "wrong"}}}), map[string]bool{"n1": false})
		if n1 := s.e3Notification(s.ws, org, "n1", ""); n1["displayBodyMessage"] != "changed" {
			t.Fatalf("filtered-out update changed n1: %v", n1)
		}
		s.fails("/v1/notifications/update", map[string]any{"organizationId": org, "notifications": []any{map[string]any{"displayBodyMessage": "x"}}}, "INVALID_ARGUMENT", 400)
		s.fails("/v1/notifications/update", map[string]any{"notifications": []any{map[string]any{"id": "n1"}}}, "INVALID_ARGUMENT", 400)
	})

	t.Run("delete reports per id", func(t *testing.T) {
		s.fails("/v1/notifications/delete", map[string]any{"organizationId": org}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/notifications/delete", map[string]any{"organizationId": org, "notificationIds": []string{}}, "INVALID_ARGUMENT", 400)
		if got := s.e3NotificationIDs(s.ws, org, nil); len(got) != 3 {
			t.Fatalf("refused deletes removed something: %v", got)
		}
		expectItems(t, s.ok("/v1/notifications/delete", map[string]any{"organizationId": org, "notificationIds": []string{"n3", "ghost"}}),
			map[string]bool{"n3": true, "ghost": false})
		expectItems(t, s.ok("/v2/notifications/delete", map[string]any{"organizationId": org, "documentId": "d1"}),
			map[string]bool{"n1": true, "n2": true})
		if got := s.e3NotificationIDs(s.ws, org, nil); len(got) != 0 {
			t.Fatalf("left after deleting: %v", got)
		}
	})

	t.Run("v2 get pages across pages", func(t *testing.T) {
		var all []string
		for i := 1; i <= 5; i++ {
			id := fmt.Sprintf("p%d", i)
			all = append(all, id)
			s.ok("/v2/notifications/add", e3NotificationIn(org, "d5", id, "ann", "bob"))
		}
		desc, pages := collectPages(t, s, "/v2/notifications/get", map[string]any{"organizationId": org, "documentId": "d5", "pageSize": 2}, "pageToken", "id")
		asc, ascPages := collectPages(t, s, "/v2/notifications/get", map[string]any{"organizationId": org, "userId": "bob", "pageSize": 2, "order": "asc"}, "pageToken", "id")
		if pages != 3 || ascPages != 3 {
			t.Fatalf("pages: %d desc, %d asc; want 3 of 2, 2, 1", pages, ascPages)
		}
		reversed := slices.Clone(asc)
		slices.Reverse(reversed)
		sorted := slices.Clone(desc)
		slices.Sort(sorted)
		if !slices.Equal(sorted, all) || !slices.Equal(reversed, desc) {
			t.Fatalf("desc %v, asc %v: want every one of %v once, asc the reverse of desc", desc, asc, all)
		}
		q := map[string]any{"organizationId": org, "documentId": "d5", "pageSize": 2}
		tok, _ := s.ok("/v2/notifications/get", q).Result["pageToken"].(string)
		s.fails("/v2/notifications/get", with(with(q, "pageToken", tok), "documentId", "d1"), "INVALID_ARGUMENT", 400)
		s.fails("/v2/notifications/get", with(q, "pageToken", "not-a-token"), "INVALID_ARGUMENT", 400)
		s.fails("/v2/notifications/get", with(q, "pageSize", 0), "INVALID_ARGUMENT", 400)
	})

	t.Run("config set and get", func(t *testing.T) {
		levels := func(docs ...string) string {
			t.Helper()
			r := s.ok("/v1/notifications/config/get", map[string]any{"organizationId": org, "userId": "bob", "documentIds": docs})
			var out []string
			for _, it := range objects(t, r) {
				cfg, _ := it["config"].(map[string]any)
				meta, _ := it["metadata"].(map[string]any)
				if meta["userId"] != "bob" || meta["organizationId"] != org {
					t.Fatalf("config item metadata %v", meta)
				}
				out = append(out, fmt.Sprintf("%s:%s/%s", meta["documentId"], cfg["inbox"], cfg["email"]))
			}
			return fmt.Sprint(out)
		}
		if got := levels("d1", "d2"); got != "[d1:ALL/ALL d2:ALL/ALL]" {
			t.Fatalf("defaults = %s", got)
		}
		r := s.ok("/v2/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "config": map[string]any{"inbox": "MINE"}})
		if it := expectItem(t, r, "bob", true); it["userId"] != "bob" {
			t.Fatalf("config/set item %v", it)
		}
		r = s.ok("/v1/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "documentIds": []string{"d2"}, "config": map[string]any{"email": "NONE"}})
		if it := expectItem(t, r, "bob", true); it["documentId"] != "d2" {
			t.Fatalf("config/set item %v", it)
		}
		if got := levels("d1", "d2"); got != "[d1:MINE/ALL d2:MINE/NONE]" {
			t.Fatalf("after set = %s", got)
		}
		r = s.ok("/v2/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob", "carol"}, "documentIds": []string{"d1", "d3"}, "config": map[string]any{"inbox": "NONE"}})
		expectItems(t, r, map[string]bool{"bob/d1": true, "bob/d3": true, "carol/d1": true, "carol/d3": true})
		if got := levels("d1", "d3", "d4"); got != "[d1:NONE/ALL d3:NONE/ALL d4:MINE/ALL]" {
			t.Fatalf("after setting several documents = %s", got)
		}

		s.fails("/v1/notifications/config/get", map[string]any{"organizationId": org, "userId": "bob", "documentIds": ids("d", 31)}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/notifications/config/get", map[string]any{"organizationId": org, "documentIds": []string{"d1"}}, "INVALID_ARGUMENT", 400)
		s.fails("/v1/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "config": map[string]any{"inbox": "ALL"}}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "config": map[string]any{"inbox": "SOME"}}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/notifications/config/set", map[string]any{"organizationId": org, "userIds": []string{"bob"}, "config": map[string]any{}}, "INVALID_ARGUMENT", 400)
		s.fails("/v2/notifications/config/set", map[string]any{"organizationId": org, "config": map[string]any{"inbox": "ALL"}}, "INVALID_ARGUMENT", 400)
		if got := levels("d1", "d2"); got != "[d1:NONE/ALL d2:MINE/NONE]" {
			t.Fatalf("refused sets changed the configuration: %s", got)
		}
	})
}
