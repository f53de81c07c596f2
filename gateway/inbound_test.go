package gateway

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"testing"

	"github.com/opencollab/backend/gateway/internal/h1"
)

// testInbound is the inbound server the gateway's tests run on. TestMain
// runs the whole suite once per server, so every behaviour test holds for
// net/http and for h1 alike. GATEWAY_TEST_INBOUND=h1 (or net/http) runs
// it on one server only, which a -cpuprofile of a benchmark needs: a
// second m.Run would overwrite the profile.
var testInbound = InboundNetHTTP

func TestMain(m *testing.M) {
	code := 0
	kinds := []string{InboundNetHTTP, InboundH1}
	if only := os.Getenv("GATEWAY_TEST_INBOUND"); only != "" {
		kinds = []string{only}
	}
	for _, kind := range kinds {
		testInbound = kind
		fmt.Fprintf(os.Stderr, "=== gateway suite on inbound server %s\n", kind)
		if c := m.Run(); c != 0 {
			code = c
		}
	}
	os.Exit(code)
}

// testServer is the gateway under test on testInbound, with a client.
type testServer struct {
	URL    string
	client *http.Client
}

func (s *testServer) Client() *http.Client { return s.client }

func startTestServer(t testing.TB, h http.Handler) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var srv interface {
		Serve(net.Listener) error
		Close() error
	}
	if testInbound == InboundH1 {
		srv = newH1Server(h)
	} else {
		srv = &http.Server{Handler: h}
	}
	go func() { _ = srv.Serve(ln) }()
	tr := &http.Transport{}
	t.Cleanup(func() {
		_ = srv.Close()
		tr.CloseIdleConnections()
	})
	return &testServer{URL: "http://" + ln.Addr().String(), client: &http.Client{Transport: tr}}
}

var _ = h1.ErrServerClosed
