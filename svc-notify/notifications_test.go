package svcnotify_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	svcnotify "github.com/opencollab/backend/svc-notify"
)

func TestAddAndGetShape(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	// Sent raw: the stored objects must come back byte for byte, HTML and
	// key order included.
	raw := `{"data":{"organizationId":"o1","documentId":"d1","notificationId":"n-1_A",
		"actionUser":{"userId":"actor","name":"Ada","email":"ada@example.com"},
		"displayHeadlineMessageTemplate":"{actionUser} replied to <b>{recipientUser}</b>",
		"displayHeadlineMessageTemplateData":{"actionUser":{"userId":"actor"},"recipientUser":"u1","project":"Apollo & co"},
		"displayBodyMessage":"<p>Looks good</p>",
		"notifyUsers":[{"userId":"u2","name":"Bo"}],
		"notificationSourceData":{"commentId":"c1","count":3,"nested":{"z":1,"a":[true,null]}},
		"location":{"id":"loc1","locationName":"Intro"}}}`
	if code, r := e.CallRaw(ws1, "/v1/notifications/add", []byte(raw)); code != http.StatusOK {
		t.Fatalf("add: HTTP %d %s", code, string(r.Body))
	}
	page, token := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": "u1"})
	if len(page) != 1 || token != "" {
		t.Fatalf("get: %d records, token %q", len(page), token)
	}
	r := page[0]
	if r.ID != "n-1_A" || r.Metadata.OrganizationID != "o1" || r.Metadata.DocumentID != "d1" || r.Metadata.LocationID != "loc1" ||
		r.DisplayHeadlineMessageTemplate != "{actionUser} replied to <b>{recipientUser}</b>" ||
		r.DisplayBodyMessage != "<p>Looks good</p>" || r.Timestamp == 0 || r.IsRead == nil || *r.IsRead {
		t.Fatalf("record %+v", r)
	}
	exact := map[string][2]string{
		"actionUser":   {string(r.ActionUser), `{"userId":"actor","name":"Ada","email":"ada@example.com"}`},
		"templateData": {string(r.DisplayHeadlineMessageTemplateData), `{"actionUser":{"userId":"actor"},"recipientUser":"u1","project":"Apollo & co"}`},
		"sourceData":   {string(r.NotificationSourceData), `{"commentId":"c1","count":3,"nested":{"z":1,"a":[true,null]}}`},
	}
	for name, c := range exact {
		if c[0] != c[1] {
			t.Errorf("%s\n got %s\nwant %s", name, c[0], c[1])
		}
	}
	want := map[string]bool{"u1": true, "u2": true}
	if !maps.Equal(r.NotifyUsers, want) || !maps.Equal(r.NotifyUsersByUserID, want) {
		t.Fatalf("notifyUsers %v, notifyUsersByUserId %v, want %v", r.NotifyUsers, r.NotifyUsersByUserID, want)
	}
	// v1 get has no paging: no pageToken key at all.
	_, rr := e.Call(ws1, "/v1/notifications/get", body{"organizationId": "o1"})
	if strings.Contains(string(rr.Body), "pageToken") {
		t.Fatalf("v1 get answered a pageToken: %s", string(rr.Body))
	}
	// Without a user there is no read state to give.
	if page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1"}); page[0].IsRead != nil {
		t.Fatal("isRead without a userId")
	}
}

func TestForYouAndAllTabs(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.add(ws1,
		note("n1"),                        // the whole organization
		note("n2", only("u1")),            // u1 directly
		note("n3", recipient(user("u1"))), // the whole organization, recipientUser u1 as a User
		note("n4", only("u2")),            // u2 only
		note("n5", only("u3"), recipient("u1")),
	)
	get := func(userID, tab string) []string {
		q := body{"organizationId": "o1", "userId": userID}
		if tab != "" {
			q["tab"] = tab
		}
		return e.getIDs(ws1, "/v1/notifications/get", q)
	}
	check := func(step string, got, want []string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %v, want %v", step, got, want)
		}
	}
	check("u1 all (the default tab)", get("u1", ""), []string{"n5", "n3", "n2", "n1"})
	check("u1 all", get("u1", "all"), []string{"n5", "n3", "n2", "n1"})
	check("u1 For You", get("u1", "forYou"), []string{"n5", "n3", "n2"})
	check("u2 For You", get("u2", "forYou"), []string{"n4"})
	check("u2 all", get("u2", "all"), []string{"n4", "n3", "n1"})
	check("nobody's view", e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1"}), []string{"n5", "n4", "n3", "n2", "n1"})

	// Read: leaves For You, stays on all with isRead.
	e.batch(ws1, "/v1/notifications/update", body{"organizationId": "o1", "notifications": []body{{"id": "n2", "readByUserIds": []string{"u1"}}}})
	check("u1 For You after reading n2", get("u1", "forYou"), []string{"n5", "n3"})
	// Read but kept: stays in For You.
	e.batch(ws1, "/v1/notifications/update", body{"organizationId": "o1", "notifications": []body{
		{"id": "n3", "readByUserIds": []string{"u1"}, "persistReadForUsers": true},
	}})
	check("u1 For You after reading n3 with persist", get("u1", "forYou"), []string{"n5", "n3"})

	page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": "u1"})
	read := map[string]bool{}
	for _, r := range page {
		read[r.ID] = *r.IsRead
	}
	if want := map[string]bool{"n1": false, "n2": true, "n3": true, "n5": false}; !maps.Equal(read, want) {
		t.Fatalf("isRead for u1: %v, want %v", read, want)
	}
	// Read state is per user.
	page, _ = e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": "u2", "notificationIds": []string{"n3"}})
	if len(page) != 1 || *page[0].IsRead {
		t.Fatalf("u2 sees n3 as %+v", page)
	}
	e.Fails(ws1, "/v1/notifications/get", body{"organizationId": "o1", "tab": "forYou"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.Fails(ws1, "/v1/notifications/get", body{"organizationId": "o1", "tab": "mine"}, http.StatusBadRequest, "INVALID_ARGUMENT")
}

func TestGetFilters(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.add(ws1, note("n1"), note("n2", set("documentId", "d2"), set("locationId", "l1")), note("n3", set("organizationId", "o2")))
	tests := []struct {
		name string
		q    body
		want []string
	}{
		{"organization", body{"organizationId": "o1"}, []string{"n2", "n1"}},
		{"document", body{"organizationId": "o1", "documentId": "d2"}, []string{"n2"}},
		{"location", body{"organizationId": "o1", "locationId": "l1"}, []string{"n2"}},
		{"ids", body{"organizationId": "o1", "notificationIds": []string{"n1", "n3"}}, []string{"n1"}},
		{"combined", body{"organizationId": "o1", "documentId": "d1", "locationId": "l1"}, []string{}},
	}
	for _, tt := range tests {
		if got := e.getIDs(ws1, "/v1/notifications/get", tt.q); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	ids31 := make([]string, 31)
	for i := range ids31 {
		ids31[i] = fmt.Sprint("n", i)
	}
	e.Fails(ws1, "/v1/notifications/get", body{"organizationId": "o1", "notificationIds": ids31}, http.StatusBadRequest, "INVALID_ARGUMENT")
}

func TestGetV2Pages(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	var all []string
	for i := 1; i <= 7; i++ {
		id := fmt.Sprintf("n%02d", i)
		e.add(ws1, note(id))
		all = append(all, id)
	}
	desc := slices.Clone(all)
	slices.Reverse(desc)
	for _, tt := range []struct {
		order string
		want  []string
	}{{"", desc}, {"desc", desc}, {"asc", all}} {
		q := body{"organizationId": "o1", "documentId": "d1", "pageSize": 3}
		if tt.order != "" {
			q["order"] = tt.order
		}
		var got []string
		var sizes []int
		for range 10 {
			page, token := e.get(ws1, "/v2/notifications/get", q)
			got = append(got, ids(page)...)
			sizes = append(sizes, len(page))
			if token == "" {
				break
			}
			q["pageToken"] = token
		}
		if !slices.Equal(got, tt.want) || !slices.Equal(sizes, []int{3, 3, 1}) {
			t.Fatalf("order %q: pages %v walked %v, want %v", tt.order, sizes, got, tt.want)
		}
	}
	// The token belongs to its query and workspace.
	_, token := e.get(ws1, "/v2/notifications/get", body{"organizationId": "o1", "documentId": "d1", "pageSize": 3})
	e.Fails(ws1, "/v2/notifications/get", body{"organizationId": "o1", "userId": "u1", "pageToken": token}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.Fails(ws2, "/v2/notifications/get", body{"organizationId": "o1", "documentId": "d1", "pageToken": token}, http.StatusBadRequest, "INVALID_ARGUMENT")
	// v2 needs documentId or userId, and a sane page size.
	e.Fails(ws1, "/v2/notifications/get", body{"organizationId": "o1"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.Fails(ws1, "/v2/notifications/get", body{"organizationId": "o1", "userId": "u1", "pageSize": 0}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.Fails(ws1, "/v2/notifications/get", body{"organizationId": "o1", "userId": "u1", "order": "up"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	// The last page says so with a null pageToken.
	_, r := e.Call(ws1, "/v2/notifications/get", body{"organizationId": "o1", "userId": "u1"})
	if !strings.Contains(string(r.Body), `"pageToken":null`) {
		t.Fatalf("last page: %s", string(r.Body))
	}
}

func TestV2AnswersLikeV1(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.OK(ws1, "/v2/notifications/add", note("n1", only("u1")), nil)
	e.add(ws1, note("n2"))
	q := body{"organizationId": "o1", "documentId": "d1", "userId": "u1", "tab": "forYou"}
	_, r1 := e.Call(ws1, "/v1/notifications/get", q)
	_, r2 := e.Call(ws1, "/v2/notifications/get", q)
	if string(r1.Result.Data) != string(r2.Result.Data) || !strings.Contains(string(r1.Result.Data), `"n1"`) {
		t.Fatalf("v1 answered %s\nv2 answered %s", r1.Result.Data, r2.Result.Data)
	}
}

func TestWorkspacesAreIsolated(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.add(ws1, note("n1", only("u1")))
	if got := e.getIDs(ws2, "/v1/notifications/get", body{"organizationId": "o1", "userId": "u1"}); len(got) != 0 {
		t.Fatalf("ws2 sees %v", got)
	}
	res := e.batch(ws2, "/v1/notifications/update", body{"organizationId": "o1", "notifications": []body{{"id": "n1", "readByUserIds": []string{"u1"}}}})
	if res["n1"].Success {
		t.Fatal("ws2 updated ws1's notification")
	}
	res = e.batch(ws2, "/v1/notifications/delete", body{"organizationId": "o1", "notificationIds": []string{"n1"}})
	if res["n1"].Success {
		t.Fatal("ws2 deleted ws1's notification")
	}
	page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": "u1"})
	if len(page) != 1 || *page[0].IsRead {
		t.Fatalf("ws1's notification after ws2's attempts: %+v", page)
	}
	// The same custom id in another workspace is another notification.
	e.add(ws2, note("n1", set("displayBodyMessage", "ws2's")))
	page, _ = e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1"})
	if len(page) != 1 || page[0].DisplayBodyMessage != "Body of n1" {
		t.Fatalf("ws2's add changed ws1's notification: %+v", page)
	}
}
