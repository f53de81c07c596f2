package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	common "go.opentelemetry.io/proto/otlp/common/v1"
	"google.golang.org/protobuf/proto"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/pkg/logging"
	"github.com/opencollab/backend/pkg/telemetry"
)

// receivedSpan is one span as an OTLP receiver got it.
type receivedSpan struct {
	service, version, name, traceID, spanID string
	attrs                                   map[string]string
}

// otlpReceiver is an in-process OTLP/HTTP collector keeping every span.
type otlpReceiver struct {
	mu      sync.Mutex
	spans   []receivedSpan
	metrics int
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch r.URL.Path {
	case "/v1/traces":
		var req coltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		o.add(&req)
	case "/v1/metrics":
		o.mu.Lock()
		o.metrics++
		o.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.WriteHeader(http.StatusOK)
}

func (o *otlpReceiver) add(req *coltrace.ExportTraceServiceRequest) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		res := attrMap(rs.Resource.Attributes)
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				o.spans = append(o.spans, receivedSpan{
					service: res["service.name"], version: res["service.version"], name: s.Name,
					traceID: hex.EncodeToString(s.TraceId), spanID: hex.EncodeToString(s.SpanId),
					attrs: attrMap(s.Attributes),
				})
			}
		}
	}
}

func (o *otlpReceiver) all() []receivedSpan {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]receivedSpan(nil), o.spans...)
}

func attrMap(kvs []*common.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		v := kv.Value
		switch {
		case v.GetStringValue() != "":
			m[kv.Key] = v.GetStringValue()
		default:
			m[kv.Key] = strings.Trim(v.String(), " ")
		}
	}
	return m
}

// syncBuffer is a log sink written by many goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b.buf.Bytes()))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

var emailPattern = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[a-z]{2,}`)

// TestTelemetryOneProcess runs the one-process stack against an OTLP
// receiver and checks what an operator sees: spans named by route under
// each service's own name and version, the gateway's HTTP attributes with
// workspace and upstream, no e-mail address anywhere in span attributes,
// and trace ids in the request's log lines.
func TestTelemetryOneProcess(t *testing.T) {
	recv := &otlpReceiver{}
	collector := httptest.NewServer(recv)
	defer collector.Close()
	t.Setenv(telemetry.EndpointEnv, collector.URL)
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "50")
	ctx := context.Background()
	shutdown, err := telemetry.Setup(ctx, system.TelemetryServices("collab-local")...)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	s := startStack(t, func(o *system.Options) {
		o.Logger = logging.New(logs, logging.ParseLevel("debug"), "")
	})
	const org = "telemetry"
	s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": []any{
		map[string]any{"userId": "ann", "name": "Ann", "email": "ann.secret@example.com"},
	}})
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "n1", "ann", "bob"))
	s.ok("/v2/users/get", map[string]any{"organizationId": org})

	metrics := get(t, s.sys.ServiceURLs["identity"]+"/metrics")
	if !strings.Contains(metrics, `http_route="/v2/users/add"`) || !strings.Contains(metrics, "http_server_request_duration_seconds_count") {
		t.Errorf("svc-identity /metrics lacks the route's request metrics:\n%.2000s", metrics)
	}
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := shutdown(sctx); err != nil {
		t.Fatalf("telemetry shutdown: %v", err)
	}
	spans := recv.all()
	checkSpans(t, spans)
	checkLogs(t, logs.lines(), spans)
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func checkSpans(t *testing.T, spans []receivedSpan) {
	t.Helper()
	find := func(service, name string) *receivedSpan {
		for i := range spans {
			if spans[i].service == service && spans[i].name == name {
				return &spans[i]
			}
		}
		t.Errorf("no span %q of %s among %d spans", name, service, len(spans))
		return nil
	}
	gw := find("gateway", "POST /v2/users/add")
	svc := find("svc-identity", "POST /v2/users/add")
	find("svc-notify", "POST /v1/notifications/add")
	if gw != nil {
		want := map[string]string{
			"http.request.method": "POST", "http.route": "/v2/users/add", "url.path": "/v2/users/add",
			"opencollab.upstream.service": "identity", "url.scheme": "http",
		}
		for k, v := range want {
			if gw.attrs[k] != v {
				t.Errorf("gateway span %s = %q, want %q", k, gw.attrs[k], v)
			}
		}
		if gw.attrs["opencollab.workspace.id"] == "" || !strings.Contains(gw.attrs["http.response.status_code"], "200") {
			t.Errorf("gateway span lacks workspace id or status: %v", gw.attrs)
		}
		if gw.version == "" {
			t.Error("gateway span has no service.version")
		}
	}
	if gw != nil && svc != nil && gw.traceID != svc.traceID {
		t.Errorf("gateway and service spans are in different traces")
	}
	redisSeen := false
	for _, s := range spans {
		if s.service == "collab-local" && strings.HasPrefix(s.name, "POST") {
			t.Errorf("request span %q reported as collab-local", s.name)
		}
		// The publish pipeline begins with the epoch command, then one XADD per event.
		if st, ok := s.attrs["db.statement"]; ok && strings.Contains(st, "XADD events:") {
			redisSeen = true
		}
		for k, v := range s.attrs {
			if emailPattern.MatchString(v) {
				t.Errorf("span %q of %s: attribute %s holds an e-mail address: %.200s", s.name, s.service, k, v)
			}
		}
	}
	if !redisSeen {
		t.Error("no Redis XADD span with a statement: nothing checked the event publication")
	}
}

func checkLogs(t *testing.T, lines []string, spans []receivedSpan) {
	t.Helper()
	traces := map[string]bool{}
	for _, s := range spans {
		traces[s.traceID] = true
	}
	requestLines := 0
	for _, l := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("log line is not JSON: %s", l)
		}
		if n := strings.Count(l, `"service":`); n > 1 {
			t.Errorf("log line names the service %d times: %s", n, l)
		}
		if rec["msg"] != "request" || rec["path"] == "/healthz" {
			continue
		}
		requestLines++
		tid, _ := rec["trace_id"].(string)
		if tid == "" || rec["span_id"] == nil || !traces[tid] {
			t.Errorf("request log line without a known trace id: %s", l)
		}
	}
	if requestLines < 3 {
		t.Errorf("%d request log lines, want one per request", requestLines)
	}
}
