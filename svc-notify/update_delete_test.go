package svcnotify_test

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	svcnotify "github.com/opencollab/backend/svc-notify"
)

func TestUpdate(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.add(ws1, note("n1", only("u1")), note("n2", set("documentId", "d2")), note("n3", only("u2")))
	for _, path := range []string{"/v1/notifications/update", "/v2/notifications/update"} {
		res := e.batch(ws1, path, body{"organizationId": "o1", "documentId": "d1", "notifications": []body{
			{"id": "n1", "displayBodyMessage": "edited " + path, "notificationSourceData": body{"v": 2}},
			{"id": "n2", "displayBodyMessage": "other document"}, // filtered out by documentId
			{"id": "missing", "displayBodyMessage": "x"},
		}})
		if want := map[string]bool{"n1": true, "n2": false, "missing": false}; !maps.Equal(successes(res), want) {
			t.Fatalf("%s: %v, want %v", path, res, want)
		}
		page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1", "notificationIds": []string{"n1", "n2"}})
		for _, r := range page {
			if r.ID == "n1" && (r.DisplayBodyMessage != "edited "+path || string(r.NotificationSourceData) != `{"v":2}`) {
				t.Fatalf("%s: n1 is %+v", path, r)
			}
			if r.ID == "n2" && r.DisplayBodyMessage != "Body of n2" {
				t.Fatalf("%s: the filtered-out n2 changed: %+v", path, r)
			}
		}
	}
	// userId filter: only notifications targeting that user; one object
	// instead of an array is accepted.
	res := e.batch(ws1, "/v1/notifications/update", body{"organizationId": "o1", "userId": "u2", "notifications": body{"id": "n3", "displayBodyMessage": "for u2"}})
	if !res["n3"].Success {
		t.Fatalf("single-object update: %v", res)
	}
	res = e.batch(ws1, "/v1/notifications/update", body{"organizationId": "o1", "userId": "u2", "notifications": []body{{"id": "n1", "displayBodyMessage": "x"}}})
	if res["n1"].Success {
		t.Fatal("userId filter let n1 (for u1) through")
	}
	// Changing the recipient moves the notification between For You tabs.
	e.batch(ws1, "/v1/notifications/update", body{"organizationId": "o1", "notifications": []body{
		{"id": "n2", "displayHeadlineMessageTemplateData": body{"recipientUser": "u9"}},
	}})
	if got := e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1", "userId": "u9", "tab": "forYou"}); !slices.Equal(got, []string{"n2"}) {
		t.Fatalf("u9 For You after becoming the recipient: %v", got)
	}
	e.Fails(ws1, "/v1/notifications/update", body{"organizationId": "o1"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.Fails(ws1, "/v1/notifications/update", body{"organizationId": "o1", "notifications": []body{{"displayBodyMessage": "x"}}}, http.StatusBadRequest, "INVALID_ARGUMENT")
}

func TestDelete(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	e.add(ws1,
		note("n1", only("u1")), note("n2", only("u2")), note("n3", set("documentId", "d2")),
		note("n4", set("documentId", "d2"), set("locationId", "l1")), note("n5"), note("n6"))

	// organizationId alone would wipe the organization: refused, nothing deleted.
	for _, q := range []body{{"organizationId": "o1"}, {"organizationId": "o1", "notificationIds": []string{}}} {
		r := e.Fails(ws1, "/v1/notifications/delete", q, http.StatusBadRequest, "INVALID_ARGUMENT")
		if !strings.Contains(r.Error.Message, "documentId, locationId, userId, notificationIds") {
			t.Fatalf("message %q does not ask for a filter", r.Error.Message)
		}
	}
	if n := e.count(bson.M{}); n != 6 {
		t.Fatalf("%d notifications left after refused deletes, want 6", n)
	}

	steps := []struct {
		path string
		q    body
		want map[string]bool
	}{
		{"/v1/notifications/delete", body{"userId": "u1"}, map[string]bool{"n1": true}},
		{"/v2/notifications/delete", body{"documentId": "d2", "locationId": "l1"}, map[string]bool{"n4": true}},
		{"/v1/notifications/delete", body{"documentId": "d1", "notificationIds": []string{"n3", "n5", "nope"}},
			map[string]bool{"n3": false, "n5": true, "nope": false}},
		{"/v2/notifications/delete", body{"notificationIds": []string{"n5"}}, map[string]bool{"n5": false}},
		{"/v1/notifications/delete", body{"documentId": "d2"}, map[string]bool{"n3": true}},
	}
	for i, st := range steps {
		st.q["organizationId"] = "o1"
		if got := successes(e.batch(ws1, st.path, st.q)); !maps.Equal(got, st.want) {
			t.Fatalf("step %d %v: %v, want %v", i, st.q, got, st.want)
		}
	}
	if got := e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1"}); !slices.Equal(got, []string{"n6", "n2"}) {
		t.Fatalf("left %v, want [n6 n2]", got)
	}
}
