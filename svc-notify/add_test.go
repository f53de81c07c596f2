package svcnotify_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	svcnotify "github.com/opencollab/backend/svc-notify"
)

func TestRandomIDAndOverwrite(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	anon := note("")
	delete(anon, "notificationId")
	e.add(ws1, anon, note("same"), note("same", set("displayBodyMessage", "second")))
	page, _ := e.get(ws1, "/v1/notifications/get", body{"organizationId": "o1"})
	if len(page) != 2 {
		t.Fatalf("%d notifications, want the random one and one for the re-added id", len(page))
	}
	byID := map[string]record{}
	for _, r := range page {
		byID[r.ID] = r
	}
	if byID["same"].DisplayBodyMessage != "second" {
		t.Fatalf("re-adding did not overwrite: %+v", byID["same"])
	}
	// Added through the API without a source: "custom" with {} (v2 as v1).
	if s := byID["same"]; s.NotificationSource != "custom" || string(s.NotificationSourceData) != "{}" {
		t.Fatalf("source = %q %s, want custom {}", s.NotificationSource, s.NotificationSourceData)
	}
	v2, _ := e.get(ws1, "/v2/notifications/get", body{"organizationId": "o1", "userId": "u1"})
	for _, r := range v2 {
		if r.NotificationSource != "custom" || string(r.NotificationSourceData) != "{}" {
			t.Fatalf("v2 source = %q %s, want custom {}", r.NotificationSource, r.NotificationSourceData)
		}
	}
	delete(byID, "same")
	for id := range byID {
		if !strings.HasPrefix(id, "ntf_") {
			t.Fatalf("random id %q", id)
		}
	}
}

func TestAddInvalid(t *testing.T) {
	e := newEnv(t, svcnotify.Config{})
	without := func(key string) func(body) { return func(b body) { delete(b, key) } }
	tests := []struct {
		name, path, field string
		b                 body
	}{
		{"no organization", "/v1/notifications/add", "organizationId", note("x", without("organizationId"))},
		{"no document", "/v1/notifications/add", "documentId", note("x", without("documentId"))},
		{"no action user", "/v1/notifications/add", "actionUser", note("x", without("actionUser"))},
		{"action user without id", "/v1/notifications/add", "actionUser.userId", note("x", set("actionUser", body{"name": "A"}))},
		{"action user as a string", "/v1/notifications/add", "actionUser", note("x", set("actionUser", "actor"))},
		{"no headline", "/v1/notifications/add", "displayHeadlineMessageTemplate", note("x", without("displayHeadlineMessageTemplate"))},
		{"no body", "/v2/notifications/add", "displayBodyMessage", note("x", without("displayBodyMessage"))},
		{"resolver mode is v2 only", "/v1/notifications/add", "displayBodyMessage", note("x", without("displayBodyMessage"), set("isNotificationResolverUsed", true))},
		{"id with a dot", "/v1/notifications/add", "notificationId", note("a.b")},
		{"id with a space", "/v2/notifications/add", "notificationId", note("a b")},
		{"recipient without id", "/v1/notifications/add", "notifyUsers[0].userId", note("x", set("notifyUsers", []body{{"name": "x"}}))},
		{"nobody to notify", "/v1/notifications/add", "notifyAll", note("x", set("notifyAll", false))},
		{"recipientUser a number", "/v1/notifications/add", "recipientUser", note("x", recipient(7))},
		{"template data not an object", "/v1/notifications/add", "displayHeadlineMessageTemplateData", note("x", set("displayHeadlineMessageTemplateData", "x"))},
		{"source data not an object", "/v1/notifications/add", "notificationSourceData", note("x", set("notificationSourceData", []int{1}))},
		{"location without id", "/v1/notifications/add", "location.id", note("x", set("location", body{"locationName": "L"}))},
		{"two location ids", "/v1/notifications/add", "locationId", note("x", set("location", body{"id": "l1"}), set("locationId", "l2"))},
		{"operator key in data", "/v1/notifications/add", "$set", note("x", set("notificationSourceData", body{"$set": 1}))},
		// v1 has no verifyUserPermissions; v2's: add_verified_test.go.
		{"recipients' access to verify on v1", "/v1/notifications/add", "verifyUserPermissions", note("x", set("verifyUserPermissions", true), only("u1"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(ws1, tt.path, tt.b, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
	if n := e.count(bson.M{}); n != 0 {
		t.Fatalf("invalid adds stored %d notifications", n)
	}
	// verifyUserPermissions false is the default and accepted.
	e.OK(ws1, "/v2/notifications/add", note("unverified", set("verifyUserPermissions", false)), nil)
	e.OK(ws1, "/v1/notifications/delete", body{"organizationId": "o1", "notificationIds": []string{"unverified"}}, nil)
	// v2 resolver mode makes the display fields optional.
	e.OK(ws1, "/v2/notifications/add", note("resolved", without("displayHeadlineMessageTemplate"), without("displayBodyMessage"),
		set("isNotificationResolverUsed", true), set("notificationSource", "custom")), nil)
	if got := e.getIDs(ws1, "/v1/notifications/get", body{"organizationId": "o1"}); !slices.Equal(got, []string{"resolved"}) {
		t.Fatalf("resolver-mode notification: %v", got)
	}
}
