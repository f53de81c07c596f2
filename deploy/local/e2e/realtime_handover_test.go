package e2e

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-content/realtimetest"
)

// In the one-process system the gateway hands realtime upgrades to
// svc-content instead of tunnelling them: svc-content's listener accepts
// no connection for the sessions, a first frame sent right behind the
// upgrade request is answered, and stopping the system still sends every
// client a close frame.
func TestRealtimeHandedOverInProcess(t *testing.T) {
	t.Parallel()
	sys, stop, err := launch(t)
	if err != nil {
		t.Fatalf("start system: %v", err)
	}
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = stop()
		}
	})
	s := &stack{t: t, sys: sys, ws: creds{sys.Credentials.APIKey, sys.Credentials.AuthToken}}
	const org, doc = "org-ho", "doc-ho"
	token := s.userToken("ada", docGrant(org, doc, "editor"))
	contentPort := portOf(t, sys.ServiceURLs["content"])
	before := acceptedOn(t, contentPort)

	name := org + "/" + doc + "/ed1"
	var conns []*realtimetest.Conn
	for range 3 {
		c := realtimetest.PipelinedAuth(t, s.wsBase(), name, token)
		op, msg, err := c.Next()
		if err != nil || op != 2 || !bytes.Equal(msg, realtimetest.AuthenticatedMessage(name)) {
			t.Fatalf("answer to the pipelined Auth: op %d %q %v", op, msg, err)
		}
		conns = append(conns, c)
	}
	if after := acceptedOn(t, contentPort); after-before >= len(conns) {
		t.Fatalf("svc-content's listener holds %d connections, %d before %d sessions: they were tunnelled", after, before, len(conns))
	}

	stopped = true
	if err := stop(); err != nil {
		t.Errorf("system shutdown: %v", err)
	}
	for i, c := range conns {
		if code := closeCodeOf(t, c); code != 1001 {
			t.Fatalf("session %d: close code %d at shutdown, want 1001", i, code)
		}
	}
}

// closeCodeOf reads c until the server's close frame, answers it and
// returns its status; 0 when the connection ended without one.
func closeCodeOf(t *testing.T, c *realtimetest.Conn) int {
	t.Helper()
	for {
		op, payload, err := c.Next()
		if err != nil {
			return 0
		}
		if op == 0x8 {
			_ = c.AnswerClose(payload)
			if len(payload) < 2 {
				return 0
			}
			return int(binary.BigEndian.Uint16(payload))
		}
	}
}

func portOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Port()
}

// acceptedOn counts the established TCP connections whose local port is
// port (the accepted side of a listener on it), from /proc/net/tcp.
func acceptedOn(t *testing.T, port string) int {
	t.Helper()
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		t.Skipf("no /proc/net/tcp: %v", err)
	}
	defer f.Close()
	suffix := fmt.Sprintf(":%04X", p)
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		// sl local_address rem_address st ...; st 01 is ESTABLISHED.
		if len(fields) > 3 && fields[3] == "01" && strings.HasSuffix(fields[1], suffix) {
			n++
		}
	}
	return n
}
