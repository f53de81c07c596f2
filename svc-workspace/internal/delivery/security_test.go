package delivery_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// TestPrivateTargetsRefusedByDefault: with default options a loopback
// endpoint gets no request and the attempt records why; with
// AllowPrivateTargets it is delivered.
func TestPrivateTargetsRefusedByDefault(t *testing.T) {
	t.Parallel()
	for _, allow := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "allowed"}[allow], func(t *testing.T) {
			db, rdb := testenv.Mongo(t), testenv.Redis(t)
			rcv := newReceiver(t)
			targets := newFakeTargets()
			rcv.verifyWith("/r", targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: rcv.url("/r")}))
			opts := testOptions(t)
			opts.AllowPrivateTargets = allow
			opts.Schedule = []time.Duration{10 * time.Millisecond}
			r := start(t, db, rdb, targets, opts)

			id := publish(t, rdb, "ws_1", activityRecord())[0].ID + ":ep_1"
			want := map[bool]string{false: "failed", true: "delivered"}[allow]
			waitFor(t, "the message "+want, func() bool { return messageStatus(t, db, id) == want })
			if allow {
				if n := len(rcv.deliveries()); n != 1 {
					t.Errorf("receiver got %d requests, want 1", n)
				}
				return
			}
			if n := len(rcv.deliveries()); n != 0 {
				t.Errorf("receiver got %d requests, want none", n)
			}
			for _, a := range allAttempts(t, r.svc, "ws_1", "ep_1") {
				if a.Status != "failed" || a.StatusCode != nil || a.Error == nil ||
					!strings.Contains(*a.Error, "127.0.0.1 is not public") {
					t.Errorf("attempt %+v, want failed with a refusal of 127.0.0.1", a)
				}
			}
		})
	}
}

// TestResponseReadIsBounded: a receiver answering 200 with an endless body
// is a success; the read stops early and the record keeps 1 KiB.
func TestResponseReadIsBounded(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	const cap = 256 << 20
	var written atomic.Int64
	stopped := make(chan struct{})
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(stopped)
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat("x", 32<<10))
		for written.Load() < cap {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: srv + "/endless"})
	r := start(t, db, rdb, targets, testOptions(t))

	id := publish(t, rdb, "ws_1", activityRecord())[0].ID + ":ep_1"
	waitFor(t, "the message delivered", func() bool { return messageStatus(t, db, id) == "delivered" })
	<-stopped
	if written.Load() >= cap {
		t.Errorf("the receiver wrote its whole %d bytes: the reply was read to the end", cap)
	}
	var a struct {
		ResponseBody string `bson:"responseBody"`
	}
	if err := db.Collection("webhook_attempt_outcomes").FindOne(context.Background(), bson.M{"messageId": id}).Decode(&a); err != nil {
		t.Fatal(err)
	}
	if len(a.ResponseBody) != 1<<10 {
		t.Errorf("stored %d bytes of the reply, want 1024", len(a.ResponseBody))
	}
	if attempts := allAttempts(t, r.svc, "ws_1", "ep_1"); len(attempts) != 1 || attempts[0].Status != "succeeded" {
		t.Errorf("attempts %+v, want one success", attempts)
	}
}

// TestRotationSignsWithBothSecrets: during a rotation the signature header
// carries one signature per secret and each verifies with its secret alone.
func TestRotationSignsWithBothSecrets(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	current, previous := randomKey(t), randomKey(t)
	targets := newFakeTargets()
	targets.addWithSecrets("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: rcv.url("/r")}, current, previous)
	start(t, db, rdb, targets, testOptions(t))

	publish(t, rdb, "ws_1", activityRecord())
	waitFor(t, "the delivery", func() bool { return len(rcv.deliveries()) == 1 })
	d := rcv.deliveries()[0]
	sigs := strings.Fields(d.Header.Get("webhook-signature"))
	if len(sigs) != 2 || !strings.HasPrefix(sigs[0], "v1,") || !strings.HasPrefix(sigs[1], "v1,") {
		t.Fatalf("webhook-signature %q, want two v1 signatures", d.Header.Get("webhook-signature"))
	}
	for i, key := range [][]byte{current, previous} {
		wh, err := standardwebhooks.NewWebhook("whsec_" + base64.StdEncoding.EncodeToString(key))
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(d.Body, d.Header); err != nil {
			t.Errorf("secret %d: %v", i, err)
		}
		// Each secret's own signature is in the header, in order.
		alone := d.Header.Clone()
		alone.Set("webhook-signature", sigs[i])
		if err := wh.Verify(d.Body, alone); err != nil {
			t.Errorf("signature %d does not verify with secret %d: %v", i, i, err)
		}
	}
	other, _ := standardwebhooks.NewWebhook("whsec_" + base64.StdEncoding.EncodeToString(randomKey(t)))
	if err := other.Verify(d.Body, d.Header); err == nil {
		t.Error("an unrelated secret verifies the signature")
	}
}

// TestEndpointFailingFiveDaysIsDisabled: a failure streak older than five
// days disables the endpoint; a success in between restarts the streak.
// Every event gets one attempt (retries are months away), on a fake clock.
func TestEndpointFailingFiveDaysIsDisabled(t *testing.T) {
	t.Parallel()
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	var offset atomic.Int64 // fake clock: real time shifted by offset
	rcv := newReceiver(t)
	var healthy atomic.Bool
	rcv.setAnswer(func(string, int) int {
		if healthy.Load() {
			return http.StatusOK
		}
		return http.StatusInternalServerError
	})
	targets := newFakeTargets()
	targets.add("ws_1", webhook.Config{}, webhook.Endpoint{ID: "ep_1", URL: rcv.url("/r")})
	opts := testOptions(t)
	opts.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	opts.Schedule = []time.Duration{100 * 24 * time.Hour}
	r := start(t, db, rdb, targets, opts)

	day := 24 * time.Hour
	steps := []struct {
		at       time.Duration
		ok       bool
		disabled bool
	}{
		{at: 0},                     // the streak starts
		{at: 3 * day, ok: true},     // a success ends it
		{at: 3*day + 5*time.Minute}, // a new streak starts
		{at: 6 * day},               // 6 days after the first failure: not disabled
		{at: 8*day + 10*time.Minute, disabled: true}, // 5 days into the new streak
	}
	for i, st := range steps {
		offset.Store(int64(st.at))
		healthy.Store(st.ok)
		e := publish(t, rdb, "ws_1", activityRecord())[0]
		waitFor(t, fmt.Sprintf("attempt %d recorded", i+1), func() bool {
			all := allAttempts(t, r.svc, "ws_1", "ep_1")
			return len(all) == i+1 && all[0].Status != "sending"
		})
		// The service judges the endpoint's health after recording the
		// attempt and before scheduling or archiving the message: the
		// clock may move on only then.
		waitFor(t, fmt.Sprintf("attempt %d applied", i+1), func() bool {
			return attemptApplied(t, db, e.ID+":ep_1")
		})
		reason, disabled := targets.disabledReason("ep_1")
		if disabled != st.disabled {
			t.Fatalf("after step %d at %v: disabled %v (%q), want %v", i+1, st.at, disabled, reason, st.disabled)
		}
		if disabled && reason != "failing for 5 days" {
			t.Errorf("reason %q", reason)
		}
	}
}

// attemptApplied tells whether the service finished with the first attempt
// of message id: archived, or queued for its second attempt.
func attemptApplied(t *testing.T, db *mongo.Database, id string) bool {
	t.Helper()
	if messageStatus(t, db, id) != "pending" {
		return true
	}
	var q struct {
		NextAttempt int `bson:"nextAttempt"`
	}
	err := db.Collection("webhook_queue").FindOne(context.Background(), bson.M{"_id": id}).Decode(&q)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return true // archived since messageStatus read it
	}
	if err != nil {
		t.Fatal(err)
	}
	return q.NextAttempt > 1
}

func randomKey(t *testing.T) []byte {
	t.Helper()
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}
