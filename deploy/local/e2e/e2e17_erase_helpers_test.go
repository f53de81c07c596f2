package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/mongodb"
)

// seedUserInEveryService gives user data in every service: a profile and
// membership, a thread of their own and a reply and reaction in bob's,
// a notification, a review decision (an activity record, which memory
// turns into a judgment with vectors) and the webhook messages of those
// events (the endpoint's host does not resolve: the messages stay stored).
func (s *stack) seedUserInEveryService(org, user string) {
	s.t.Helper()
	s.ok("/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true})
	s.ok("/v2/workspace/advancedwebhook/endpoints/create", map[string]any{"url": "https://hooks.invalid/in"})
	s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": []any{map[string]any{"userId": user, "name": "Ann", "email": user + "@example.com"}}})
	s.e3AddAnnotations(s.ws, org, "d1", e3AnnotationIn("t1", "", user, user+" one"), e3AnnotationIn("t2", "", "bob", "bob only"))
	s.ok("/v2/commentannotations/comments/add", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "t2",
		"commentData": []any{e3CommentIn(user, user+" replies")}})
	s.ok("/v2/commentannotations/reactions/add", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "t2", "icon": "HEART", "user": e3User(user)})
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "to-"+user, "bob", user))
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "to-bob", "bob", "bob"))
	s.ok("/v2/activities/add", map[string]any{"organizationId": org, "documentId": "d1", "activities": []any{map[string]any{
		"id": "review-1", "featureType": "comment", "actionType": "comment_annotation.approve", "targetEntityId": "t2",
		"actionUser": e3User(user), "entityData": map[string]any{"commentText": "Approved: the summary is accurate"},
	}}})
	if p := s.e3UserData(s.ws, org, user, nil); len(p.comments) == 0 || len(p.notifications) == 0 {
		s.t.Fatalf("fixture: %s has no data: %+v", user, p)
	}
	waitUntil(s.t, "the review judgment", func() bool { return len(s.judgmentsOf(org, user)) == 1 })
}

// judgmentsOf lists the memory judgments of org whose reviewer is user.
func (s *stack) judgmentsOf(org, user string) []string {
	s.t.Helper()
	var out []string
	for _, r := range s.e5QueryAll(s.ws, map[string]any{"organizationId": org}) {
		if r.ActionUser.UserID == user {
			out = append(out, r.RecordID)
		}
	}
	return out
}

// waitErased polls the job's status until it is complete (30 s at most).
func (s *stack) waitErased(jobID string) map[string]any {
	s.t.Helper()
	var st map[string]any
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		st = s.ok("/v2/users/data/delete/status", map[string]any{"jobId": jobID}).DataMap()
		if st["isDeleteCompleted"] == true || time.Now().After(deadline) {
			return st
		}
	}
}

// expectNothingOf checks every read of the public surface for user: the
// user data export, the profile, activities and memory judgments.
func (s *stack) expectNothingOf(org, user string) {
	s.t.Helper()
	p := s.e3UserData(s.ws, org, user, nil)
	if len(p.comments)+len(p.reactions)+len(p.notifications) != 0 {
		s.t.Fatalf("%s's data after erasure: %+v", user, p)
	}
	if u := s.ok("/v2/users/data/get", map[string]any{"organizationId": org, "userId": user}).DataMap()["user"]; u != nil {
		s.t.Fatalf("%s's profile after erasure: %v", user, u)
	}
	acts := s.ok("/v2/activities/get", map[string]any{"organizationId": org})
	if raw := string(acts.Raw); slices.ContainsFunc([]string{`"userId":"` + user + `"`, user + "@example.com"}, func(s string) bool { return strings.Contains(raw, s) }) {
		s.t.Fatalf("activities after erasure name %s: %s", user, raw)
	}
	if j := s.judgmentsOf(org, user); len(j) != 0 {
		s.t.Fatalf("memory judgments of %s after erasure: %v", user, j)
	}
}

// hookStore reads svc-workspace's stored webhook messages.
type hookStore struct {
	t     *testing.T
	colls []*mongo.Collection
}

func webhookStore(t *testing.T, uri, prefix string) hookStore {
	t.Helper()
	client, err := mongodb.Connect(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	db := client.Database(prefix + "workspace")
	return hookStore{t: t, colls: []*mongo.Collection{db.Collection("webhook_queue"), db.Collection("webhook_messages")}}
}

// naming counts the stored messages whose payload holds user's id.
func (h hookStore) naming(user string) int {
	h.t.Helper()
	n := 0
	for _, c := range h.colls {
		k, err := c.CountDocuments(context.Background(), bson.M{"payload": bson.M{"$regex": `"` + user + `"`}})
		if err != nil {
			h.t.Fatal(err)
		}
		n += int(k)
	}
	return n
}

// waitUntil polls cond for up to 30 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// payloadsNaming returns the payloads naming user, for failure messages.
func (h hookStore) payloadsNaming(user string) []string {
	var out []string
	for _, c := range h.colls {
		cur, err := c.Find(context.Background(), bson.M{"payload": bson.M{"$regex": `"` + user + `"`}})
		if err != nil {
			return []string{err.Error()}
		}
		var docs []struct {
			Payload string `bson:"payload"`
			Status  string `bson:"status"`
		}
		_ = cur.All(context.Background(), &docs)
		for _, d := range docs {
			out = append(out, c.Name()+" "+d.Status+" "+d.Payload)
		}
	}
	return out
}
