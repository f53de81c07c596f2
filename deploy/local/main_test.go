package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// TestWebhooksReachLocalReceiver runs the stack as `make run` does, with
// the setting the README documents (WEBHOOK_ALLOW_PRIVATE_TARGETS=true),
// and checks that an event reaches a webhook receiver on this machine.
func TestWebhooksReachLocalReceiver(t *testing.T) {
	var mu sync.Mutex
	var events []string
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Event string `json:"event"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		events = append(events, body.Event)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rcv.Close()
	for k, v := range map[string]string{
		"DATA_DIR": t.TempDir(), "GATEWAY_ADDR": "127.0.0.1:0", "METRICS_ADDR": "127.0.0.1:0",
		"MONGO_URI": testenv.MongoURI(t), "REDIS_URL": testenv.RedisURL(t),
		"WEBHOOK_ALLOW_PRIVATE_TARGETS": "true", "LOG_LEVEL": "warn",
	} {
		t.Setenv(k, v)
	}
	ctx, cancel := context.WithCancel(context.Background())
	up := make(chan *system.System, 1)
	done := make(chan error, 1)
	go func() { done <- realMain(ctx, func(s *system.System) { up <- s }) }()
	var sys *system.System
	select {
	case sys = <-up:
	case err := <-done:
		t.Fatalf("stack did not start: %v", err)
	}
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("stack stopped with %v, want a clean exit", err)
		}
	}()
	post := func(path string, data any) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"data": data})
		req, _ := http.NewRequest(http.MethodPost, sys.GatewayURL+path, bytes.NewReader(b))
		req.Header.Set("x-svc-api-key", sys.Credentials.APIKey)
		req.Header.Set("x-svc-auth-token", sys.Credentials.AuthToken)
		req.Header.Set("content-type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if raw, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, raw)
		}
	}
	post("/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true})
	post("/v2/workspace/advancedwebhook/endpoints/create", map[string]any{"url": rcv.URL})
	post("/v1/notifications/add", map[string]any{
		"organizationId": "org-1", "documentId": "d1", "notificationId": "n1",
		"actionUser":                     map[string]any{"userId": "ann", "name": "Ann", "email": "ann@example.com"},
		"displayHeadlineMessageTemplate": "{actionUser} wrote", "displayBodyMessage": "hello",
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(events, ",")
		mu.Unlock()
		if strings.Contains(got, "notification") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no notification event reached the local receiver in 30s (got %q)", got)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if sys.MetricsURL == "" {
		t.Fatal("METRICS_ADDR is set but the gateway's /metrics is not served")
	}
	checkDashboardMetrics(t, sys)
}

// checkDashboardMetrics checks that every metric the Grafana dashboard
// queries is served: webhook and lag metrics by svc-workspace (which just
// delivered), request metrics by the gateway. The receiver counts an
// event before it answers, and svc-workspace records the delivery after
// the answer: the metrics are scraped again until they show it (or 10 s).
func checkDashboardMetrics(t *testing.T, sys *system.System) {
	t.Helper()
	dash, err := os.ReadFile("../grafana/opencollab-dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`[a-z_]+_(?:bucket|count|total)\b`).FindAllString(string(dash), -1)
	if len(names) < 4 {
		t.Fatalf("dashboard queries %v: too few metrics found", names)
	}
	var missing []string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		served := scrape(t, sys.ServiceURLs["workspace"]+"/metrics") + scrape(t, sys.MetricsURL+"/metrics")
		missing = missing[:0]
		for _, n := range names {
			if !strings.Contains(served, "\n"+n+"{") {
				missing = append(missing, "the dashboard queries "+n+", which no /metrics serves")
			}
		}
		if !strings.Contains(served, `outcome="succeeded"`) || !strings.Contains(served, `service_name="gateway"`) {
			missing = append(missing, "no succeeded webhook delivery or gateway series in the metrics")
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, m := range missing {
		t.Error(m)
	}
}

func scrape(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
