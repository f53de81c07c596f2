package gateway

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The client has the whole of a sized answer while the request's
// bookkeeping still runs. The access log, the last of it, is held here
// until the answer has arrived: an answer kept in the inbound server's
// buffer until the handler returns never would.
func TestAnswerReachesTheClientBeforeTheBookkeeping(t *testing.T) {
	t.Parallel()
	hold := make(chan struct{})
	defer close(hold) // before the server's cleanup, which waits for the handler
	e := newEnvDeps(t, nil, Deps{Logger: slog.New(heldAccessLog{hold})})
	got := make(chan string, 1)
	go func() {
		resp, raw, err := e.send(http.MethodPost, "/v2/users/get", strings.NewReader(`{"data":{}}`), creds...)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- resp.Status + " " + string(raw)
	}()
	select {
	case answer := <-got:
		if !strings.HasPrefix(answer, "200 ") || !strings.Contains(answer, `"service":"identity"`) {
			t.Fatalf("answer %q, want identity's 200", answer)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the answer waited for the request's access log")
	}
}

// heldAccessLog is a log handler whose access log lines wait for hold.
type heldAccessLog struct{ hold chan struct{} }

func (heldAccessLog) Enabled(context.Context, slog.Level) bool { return true }

func (h heldAccessLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "request" {
		<-h.hold
	}
	return nil
}

func (h heldAccessLog) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h heldAccessLog) WithGroup(string) slog.Handler      { return h }
