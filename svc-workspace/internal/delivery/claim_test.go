package delivery

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// oneTarget is a Targets with a single endpoint.
type oneTarget struct{ t webhook.DeliveryTarget }

func (o oneTarget) DeliveryTargets(context.Context, string, string) (webhook.Config, []webhook.DeliveryTarget, error) {
	return webhook.Config{IsEnabled: true}, []webhook.DeliveryTarget{o.t}, nil
}

func (o oneTarget) DeliveryTarget(context.Context, string, string) (webhook.Config, webhook.DeliveryTarget, error) {
	return webhook.Config{IsEnabled: true}, o.t, nil
}

func (o oneTarget) DisableEndpoint(context.Context, string, string, string) error { return nil }

// counter is a receiver counting requests per webhook-id.
type counter struct {
	mu  sync.Mutex
	got map[string]int
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.got[r.Header.Get("webhook-id")]++
	c.mu.Unlock()
	time.Sleep(2 * time.Millisecond) // widen the window in which claims race
}

func (c *counter) count(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got[id]
}

// claimSetup returns two services (replicas) on one database, a queued
// message and the receiver it goes to.
func claimSetup(t *testing.T, now func() time.Time) (a, b *Service, m messageDoc, rcv *counter) {
	t.Helper()
	db := testenv.Mongo(t)
	rcv = &counter{got: map[string]int{}}
	srv := httptest.NewServer(rcv)
	t.Cleanup(srv.Close)
	targets := oneTarget{webhook.DeliveryTarget{
		Endpoint: webhook.Endpoint{ID: "ep_1", WorkspaceID: "ws_1", URL: srv.URL},
		Secrets:  [][]byte{[]byte("0123456789abcdef0123456789abcdef")},
	}}
	opts := Options{AllowPrivateTargets: true, Timeout: time.Second, Lease: 10 * time.Second, Now: now}
	opts.ConsumerName = "a"
	a = NewService(db, targets, opts)
	opts.ConsumerName = "b"
	b = NewService(db, targets, opts)
	if err := a.EnsureIndexes(context.Background()); err != nil {
		t.Fatal(err)
	}
	m = messageDoc{
		ID: "ev_1:ep_1", WorkspaceID: "ws_1", EndpointID: "ep_1", EventID: "ev_1", EventType: "activity.add",
		Payload: `{"event":"activity.add"}`, Status: statusPending, NextAttempt: 1, NextAttemptAt: time.Now(),
	}
	if _, err := a.store.enqueue(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	return a, b, m, rcv
}

// TestConcurrentClaimsSendOnce races workers of two replicas on the same
// attempt of the same message: exactly one request is made, one attempt
// and one outcome recorded. FerretDB's non-atomic filtered updates play no
// part: the claim is an insert.
func TestConcurrentClaimsSendOnce(t *testing.T) {
	t.Parallel()
	for round := range 5 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			a, b, m, rcv := claimSetup(t, nil)
			var wg sync.WaitGroup
			for i := range 16 {
				svc := a
				if i%2 == 1 {
					svc = b
				}
				wg.Go(func() {
					if err := svc.attempt(context.Background(), m); err != nil {
						t.Errorf("attempt: %v", err)
					}
				})
			}
			wg.Wait()
			if n := rcv.count(m.ID); n != 1 {
				t.Fatalf("the message was sent %d times", n)
			}
			page, err := a.Attempts(context.Background(), "ws_1", "ep_1", 10, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Attempts) != 1 || page.Attempts[0].Status != attemptSucceeded {
				t.Errorf("attempts %+v, want one success", page.Attempts)
			}
		})
	}
}

// TestLateResultLosesToInterruption: when another worker declared a
// stalled attempt interrupted first, the owner's late 2xx is not recorded
// and the message goes on to its next attempt; when the owner recorded
// first, the would-be interrupter changes nothing and the message is done.
func TestLateResultLosesToInterruption(t *testing.T) {
	t.Parallel()
	var shift atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(shift.Load())) }
	ctx := context.Background()

	t.Run("interrupted first", func(t *testing.T) {
		a, b, m, _ := claimSetup(t, now)
		shift.Store(0)
		claim := a.claimFor(m)
		if won, err := a.store.claimAttempt(ctx, claim); err != nil || !won {
			t.Fatalf("claim: %v %v", won, err)
		}
		shift.Store(int64(time.Minute)) // the owner stalls past its lease
		if err := b.settle(ctx, m); err != nil {
			t.Fatal(err)
		}
		late := newOutcome(claim, "a")
		code := 200
		late.Succeeded, late.StatusCode, late.FinishedAt = true, &code, now()
		if err := a.decide(ctx, m, late); err != nil {
			t.Fatal(err)
		}
		out, _, err := a.store.outcome(ctx, "ws_1", claim.ID)
		if err != nil || !out.Interrupted || out.Succeeded {
			t.Fatalf("outcome %+v (%v), want the interruption", out, err)
		}
		var q messageDoc
		if err := a.store.queue.FindOne(ctx, map[string]string{"_id": m.ID}).Decode(&q); err != nil {
			t.Fatal(err)
		}
		if q.NextAttempt != 2 {
			t.Errorf("next attempt %d, want 2", q.NextAttempt)
		}
	})
	t.Run("result first", func(t *testing.T) {
		a, b, m, _ := claimSetup(t, now)
		shift.Store(0)
		claim := a.claimFor(m)
		if won, err := a.store.claimAttempt(ctx, claim); err != nil || !won {
			t.Fatalf("claim: %v %v", won, err)
		}
		done := newOutcome(claim, "a")
		code := 204
		done.Succeeded, done.StatusCode, done.FinishedAt = true, &code, now()
		if err := a.decide(ctx, m, done); err != nil {
			t.Fatal(err)
		}
		shift.Store(int64(time.Minute))
		// A stale look at the message (its cache still says attempt 1).
		if err := b.settle(ctx, m); err != nil {
			t.Fatal(err)
		}
		out, _, err := a.store.outcome(ctx, "ws_1", claim.ID)
		if err != nil || !out.Succeeded {
			t.Fatalf("outcome %+v (%v), want the success", out, err)
		}
		var archived messageDoc
		if err := a.store.messages.FindOne(ctx, map[string]string{"_id": m.ID}).Decode(&archived); err != nil {
			t.Fatal(err)
		}
		if archived.Status != statusDelivered {
			t.Errorf("message %s, want delivered", archived.Status)
		}
	})
}
