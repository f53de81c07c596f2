package delivery_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// TestEraseUsersRedactsWebhookPayloads: after a user's erasure, the
// delivered message that named them keeps only its type, the receiver's
// recorded answer to it is gone, the pending one (its endpoint failing) is
// cancelled and never sent again, and a message naming only another user
// is untouched. A second erasure changes nothing more.
func TestEraseUsersRedactsWebhookPayloads(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	rcv.setAnswer(func(path string, _ int) int {
		if path == "/down" {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_up", URL: rcv.url("/up")})
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_down", URL: rcv.url("/down")})
	opts := testOptions(t)
	opts.Schedule = []time.Duration{time.Hour} // the failing endpoint's message stays pending
	r := start(t, db, rdb, targets, opts)

	ann, bob := activityRecord(), activityRecord()
	bob["id"], bob["actionUser"] = "act_2", map[string]any{"userId": "bob", "name": "Bob"}
	evs := publish(t, rdb, "ws_1", ann, bob)
	annUp, annDown, bobUp := evs[0].ID+":ep_up", evs[0].ID+":ep_down", evs[1].ID+":ep_up"
	waitFor(t, "deliveries and the failed first attempts", func() bool {
		return messageStatus(t, db, annUp) == "delivered" && messageStatus(t, db, bobUp) == "delivered" &&
			len(rcv.deliveries()) == 4
	})
	if messageStatus(t, db, annDown) != "pending" {
		t.Fatalf("fixture: ann's message to the failing endpoint is %q", messageStatus(t, db, annDown))
	}

	// A receiver that echoes the body: its recorded answer names ann too.
	if _, err := db.Collection("webhook_attempt_outcomes").UpdateMany(ctx, bson.M{"messageId": annUp},
		bson.M{"$set": bson.M{"responseBody": `{"echo":"u1"}`}}); err != nil {
		t.Fatal(err)
	}
	n, err := r.svc.EraseUsers(ctx, "ws_1", []string{"u1"})
	if err != nil || n != 2 {
		t.Fatalf("EraseUsers: %d, %v; want 2 messages", n, err)
	}
	payload := func(id string) string {
		var m struct {
			Payload string `bson:"payload"`
		}
		if err := db.Collection("webhook_messages").FindOne(ctx, bson.M{"_id": id}).Decode(&m); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		return m.Payload
	}
	for _, id := range []string{annUp, annDown} {
		if p := payload(id); strings.Contains(p, "u1") || strings.Contains(p, "Ada") || !strings.Contains(p, "redacted") {
			t.Errorf("%s after erasure: %s", id, p)
		}
	}
	if p := payload(bobUp); !strings.Contains(p, `"bob"`) {
		t.Errorf("bob's message changed: %s", p)
	}
	if st := messageStatus(t, db, annDown); st != "cancelled" {
		t.Errorf("ann's pending message is %q, want cancelled", st)
	}
	if q, _ := db.Collection("webhook_queue").CountDocuments(ctx, bson.M{"_id": annDown}); q != 0 {
		t.Error("the cancelled message is still queued")
	}
	if k, _ := db.Collection("webhook_attempt_outcomes").CountDocuments(ctx, bson.M{"messageId": annUp, "responseBody": bson.M{"$exists": true}}); k != 0 {
		t.Error("the receiver's answer to the redacted message is still recorded")
	}
	if n, err := r.svc.EraseUsers(ctx, "ws_1", []string{"u1"}); err != nil || n != 0 {
		t.Fatalf("second EraseUsers: %d, %v; want 0 (nothing names u1 any more)", n, err)
	}
	time.Sleep(200 * time.Millisecond)
	for _, d := range rcv.deliveries() {
		if d.Path == "/down" && strings.Contains(string(d.Body), "u1") && d.At.After(time.Now().Add(-150*time.Millisecond)) {
			t.Error("ann's data was sent after the erasure")
		}
	}
}

// TestMessageQueuedAfterAnErasureIsNotSent: an event published just
// before a user's erasure can be queued after the erasure looked for the
// messages naming them. Its attempt finds the user erased and cancels it,
// payload redacted, while a message naming another user is delivered.
func TestMessageQueuedAfterAnErasureIsNotSent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_up", URL: rcv.url("/up")})
	r := start(t, db, rdb, targets, testOptions(t))

	if n, err := r.svc.EraseUsers(ctx, "ws_1", []string{"u1"}); err != nil || n != 0 {
		t.Fatalf("EraseUsers before any message: %d, %v", n, err)
	}
	ann, bob := activityRecord(), activityRecord()
	bob["id"], bob["actionUser"] = "act_2", map[string]any{"userId": "bob", "name": "Bob"}
	evs := publish(t, rdb, "ws_1", ann, bob)
	annUp, bobUp := evs[0].ID+":ep_up", evs[1].ID+":ep_up"
	waitFor(t, "bob's delivery and ann's cancellation", func() bool {
		return messageStatus(t, db, bobUp) == "delivered" && messageStatus(t, db, annUp) == "cancelled"
	})
	for _, d := range rcv.deliveries() {
		if strings.Contains(string(d.Body), "u1") || strings.Contains(string(d.Body), "Ada") {
			t.Errorf("the erased user's data was sent: %s", d.Body)
		}
	}
	var m struct {
		Payload string `bson:"payload"`
	}
	if err := db.Collection("webhook_messages").FindOne(ctx, bson.M{"_id": annUp}).Decode(&m); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(m.Payload, "u1") || !strings.Contains(m.Payload, "redacted") {
		t.Errorf("the cancelled message keeps %s", m.Payload)
	}
	// Finished messages leave the queue in batches (flushFinished), after
	// their status is written: wait for it rather than look once.
	waitFor(t, "the cancelled message to leave the queue", func() bool {
		q, err := db.Collection("webhook_queue").CountDocuments(ctx, bson.M{"_id": annUp})
		return err == nil && q == 0
	})
}
