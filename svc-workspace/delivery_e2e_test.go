package svcworkspace_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/service"
	"github.com/opencollab/backend/pkg/testenv"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

// hookRequest is one request the test receiver got.
type hookRequest struct {
	header http.Header
	body   []byte
}

// TestWebhookDeliveryEndToEnd configures a workspace through the API,
// publishes activity events on the stream and checks what the loopback
// receiver gets — verified with the Standard Webhooks library against the
// secret from secret/get, decrypted with the private key once encryptData
// is on — and what attempts/get lists.
func TestWebhookDeliveryEndToEnd(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{
		DataEncryptionKey: testDataKey, WebhookAllowPrivateTargets: true, EventStreams: []string{"events:activity"},
	})
	created := e.createWorkspace(nil)
	ws := internalauth.Workspace(created.WorkspaceID)
	e.enableHooks(ws)

	var mu sync.Mutex
	var got []hookRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, hookRequest{header: r.Header.Clone(), body: body})
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	received := func() []hookRequest {
		mu.Lock()
		defer mu.Unlock()
		return append([]hookRequest(nil), got...)
	}
	ep := e.createEndpoint(ws, map[string]any{"url": srv.URL + "/hook", "filterTypes": []string{"activity.add"}})
	wh, err := standardwebhooks.NewWebhook(e.secret(ws, ep.ID))
	if err != nil {
		t.Fatal(err)
	}

	pub := events.NewPublisher(e.Redis, nil, "activity", nil)
	send := func(typ string) events.Event {
		ev, err := events.New(typ, "activity", created.WorkspaceID, "org_1", "doc_1",
			map[string]any{"id": "act_1", "actionUser": map[string]any{"userId": "u1"}})
		if err != nil {
			t.Fatal(err)
		}
		if err := pub.Publish(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		return ev
	}
	wait := func(n int) hookRequest {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for len(received()) < n {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for delivery %d", n)
			}
			time.Sleep(20 * time.Millisecond)
		}
		r := received()[n-1]
		if err := wh.Verify(r.body, r.header); err != nil {
			t.Fatalf("delivery %d does not verify: %v", n, err)
		}
		return r
	}

	send("activity.update") // filtered out
	plain := send("activity.add")
	r := wait(1)
	var body struct {
		Event     string `json:"event"`
		WebhookID string `json:"webhookId"`
		Data      struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Event != "activity.add" || body.Data.ID != "act_1" || body.WebhookID != plain.ID+":"+ep.ID {
		t.Errorf("body %s", r.body)
	}

	e.OK(ws, hookConfigUpdate, map[string]any{"encryptData": true, "publicKey": pkixKey(t, 2048)}, nil)
	send("activity.add")
	r = wait(2)
	var sealed struct{ EncryptedData, EncryptedKey, IV string }
	if err := json.Unmarshal(r.body, &sealed); err != nil {
		t.Fatal(err)
	}
	plainBody := decrypt(t, rsaKey(t, 2048), sealed.EncryptedData, sealed.EncryptedKey, sealed.IV)
	if err := json.Unmarshal(plainBody, &body); err != nil || body.Event != "activity.add" {
		t.Errorf("decrypted body %s (%v)", plainBody, err)
	}
	if n := len(received()); n != 2 {
		t.Errorf("%d deliveries, want 2 (activity.update is filtered out)", n)
	}

	var page struct {
		Attempts []struct {
			MessageID  string `json:"messageId"`
			Status     string `json:"status"`
			StatusCode *int   `json:"statusCode"`
		} `json:"attempts"`
		Done bool `json:"done"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		e.OK(ws, attemptsGet, map[string]any{"endpointId": ep.ID}, &page)
		if len(page.Attempts) == 2 && page.Attempts[0].Status == "succeeded" && page.Attempts[1].Status == "succeeded" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("attempts %+v", page)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !page.Done || page.Attempts[1].MessageID != plain.ID+":"+ep.ID || *page.Attempts[1].StatusCode != 200 {
		t.Errorf("attempts %+v", page)
	}
}

// decrypt opens an encryptData body with the private key.
func decrypt(t *testing.T, priv *rsa.PrivateKey, data, key, iv string) []byte {
	t.Helper()
	dec := func(s string) []byte {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	aesKey, err := rsa.DecryptOAEP(sha256.New(), nil, priv, dec(key), nil)
	if err != nil {
		t.Fatal(err)
	}
	block, err := aes.NewCipher(aesKey)
	if err != nil {
		t.Fatal(err)
	}
	sealed := dec(data)
	if len(sealed) == 0 || len(sealed)%aes.BlockSize != 0 {
		t.Fatalf("ciphertext of %d bytes", len(sealed))
	}
	plain := make([]byte, len(sealed))
	cipher.NewCBCDecrypter(block, dec(iv)).CryptBlocks(plain, sealed)
	pad := int(plain[len(plain)-1])
	if pad < 1 || pad > aes.BlockSize {
		t.Fatalf("padding %d", pad)
	}
	return plain[:len(plain)-pad]
}

// benchService is svc-workspace as deployed (default delivery options,
// loopback targets allowed) with one workspace whose advanced webhooks go
// to a fast loopback receiver; arrived notes when each webhook-id came.
func benchService(b *testing.B) (publish func(n int) []string, arrived func(id string) (time.Time, bool), count func() int) {
	b.Helper()
	ctx := context.Background()
	rdb := testenv.Redis(b)
	svc, err := svcworkspace.New(ctx, svcworkspace.Config{
		Base: service.Base{InternalSecret: secret}, DataEncryptionKey: testDataKey,
		WebhookAllowPrivateTargets: true, EventStreams: []string{"events:activity"},
	}, svcworkspace.Deps{DB: testenv.Mongo(b), Redis: rdb})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(svc.Close)
	call := func(principal, path string, data, out any) {
		body, _ := json.Marshal(map[string]any{"data": data})
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
		signer.Sign(req.Header, principal)
		rec := httptest.NewRecorder()
		svc.Handler().ServeHTTP(rec, req)
		var r reply
		if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || rec.Code != http.StatusOK {
			b.Fatalf("%s: HTTP %d %s", path, rec.Code, rec.Body)
		}
		if out != nil {
			_ = json.Unmarshal(r.Result.Data, out)
		}
	}
	var ws created
	call(internalauth.Operator, "/v2/workspace/create", map[string]any{}, &ws)
	principal := internalauth.Workspace(ws.WorkspaceID)
	call(principal, hookConfigUpdate, map[string]any{"isEnabled": true}, nil)

	var mu sync.Mutex
	at := map[string]time.Time{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		mu.Lock()
		at[r.Header.Get("webhook-id")] = now
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	b.Cleanup(srv.Close)
	var ep endpointReply
	call(principal, endpointsCreate, map[string]any{"url": srv.URL + "/hook"}, &ep)

	pub := events.NewPublisher(rdb, nil, "activity", nil)
	publish = func(n int) []string {
		evs := make([]events.Event, n)
		ids := make([]string, n)
		for i := range evs {
			ev, err := events.New("activity.add", "activity", ws.WorkspaceID, "org_1", "doc_1",
				map[string]any{"id": "act_1", "actionType": "comment.add", "actionUser": map[string]any{"userId": "u1"}})
			if err != nil {
				b.Fatal(err)
			}
			evs[i], ids[i] = ev, ev.ID+":"+ep.ID
		}
		if err := pub.Publish(ctx, evs...); err != nil {
			b.Fatal(err)
		}
		return ids
	}
	arrived = func(id string) (time.Time, bool) {
		mu.Lock()
		defer mu.Unlock()
		t, ok := at[id]
		return t, ok
	}
	count = func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(at)
	}
	return publish, arrived, count
}

// BenchmarkWebhookThroughput: deliveries per second of a backlog of b.N
// activity events, stream to receiver, through the whole service.
//
//	go test . -run '^$' -bench BenchmarkWebhookThroughput -benchtime 1000x
func BenchmarkWebhookThroughput(b *testing.B) {
	publish, _, count := benchService(b)
	publish(10) // warm up
	benchWait(b, func() bool { return count() == 10 })
	b.ResetTimer()
	began := time.Now()
	for done := 0; done < b.N; done += 500 {
		publish(min(500, b.N-done))
	}
	benchWait(b, func() bool { return count() == 10+b.N })
	b.ReportMetric(float64(b.N)/time.Since(began).Seconds(), "deliveries/s")
}

// BenchmarkWebhookLatency: delay from an activity event being published to
// its webhook arriving, one event at a time, through the whole service.
//
//	go test . -run '^$' -bench BenchmarkWebhookLatency -benchtime 300x
func BenchmarkWebhookLatency(b *testing.B) {
	publish, arrived, count := benchService(b)
	publish(5)
	benchWait(b, func() bool { return count() == 5 })
	delays := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		began := time.Now()
		id := publish(1)[0]
		var at time.Time
		benchWait(b, func() bool {
			var ok bool
			at, ok = arrived(id)
			return ok
		})
		delays = append(delays, at.Sub(began))
	}
	b.StopTimer()
	slices.Sort(delays)
	pct := func(p float64) float64 {
		return float64(delays[min(len(delays)-1, int(p*float64(len(delays))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// benchWait polls cond every 100µs (little added to a measured delay) for
// at most a minute.
func benchWait(b *testing.B, cond func() bool) {
	b.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			b.Fatal("timed out waiting for deliveries")
		}
		time.Sleep(100 * time.Microsecond)
	}
}
