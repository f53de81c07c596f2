package gateway

import (
	"context"
	"io"
	"net/http"
	"testing"
)

// A service on h1 reads its request's fields from r.Header, which the
// gateway's own h1 leaves empty (it reads h1.RequestFields).
func TestServiceH1FillsHeaderMap(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.Header.Get("X-Probe"))
	})
	svc, err := ListenServiceH1("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gw, err := ListenInbound(InboundH1, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   *Inbound
		want string
	}{{svc, "probe"}, {gw, ""}} {
		if got := serveOnce(t, c.in, echo); got != c.want {
			t.Errorf("%s: handler read X-Probe %q, want %q", c.in.kind, got, c.want)
		}
	}
}

// serveOnce serves h on in for one request carrying X-Probe, then shuts
// it down, and returns the answer's body.
func serveOnce(t *testing.T, in *Inbound, h http.Handler) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- in.Serve(ctx, h) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}()
	req, _ := http.NewRequest(http.MethodGet, "http://"+in.Addr()+"/", nil)
	req.Header.Set("X-Probe", "probe")
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}
