package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeHocuspocus is a Hocuspocus server small enough to trust, on another
// WebSocket implementation (gorilla) than the clients': it answers the
// first sync, relays each update to the document's other connections after
// relayDelay, then acknowledges it, and pings every connection once.
type fakeHocuspocus struct {
	relayDelay time.Duration
	mu         sync.Mutex
	docs       map[string][]*fakeConn
	updates    atomic.Int64 // updates received
	pongs      atomic.Int64
	aware      map[uint64][]uint64 // client id → awareness clocks received, in order (mu)
	badAware   atomic.Int64
}

type fakeConn struct {
	mu sync.Mutex
	ws *websocket.Conn
}

func (f *fakeConn) send(m []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	_ = f.ws.WriteMessage(websocket.BinaryMessage, m)
}

func startFake(t *testing.T, relayDelay time.Duration) (*fakeHocuspocus, *server) {
	f := &fakeHocuspocus{relayDelay: relayDelay, docs: map[string][]*fakeConn{}, aware: map[uint64][]uint64{}}
	up := websocket.Upgrader{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		ws.SetPongHandler(func(string) error { f.pongs.Add(1); return nil })
		go f.serve(&fakeConn{ws: ws})
	}))
	t.Cleanup(ts.Close)
	return f, &server{name: "fake", url: "ws" + strings.TrimPrefix(ts.URL, "http")}
}

func (f *fakeHocuspocus) serve(c *fakeConn) {
	c.mu.Lock()
	_ = c.ws.WriteControl(websocket.PingMessage, []byte("are you there"), time.Now().Add(time.Second))
	c.mu.Unlock()
	for {
		_, m, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		r := reader{b: m}
		name := string(r.bytes())
		typ := r.uvarint()
		if typ == hpAwareness {
			f.awareness(r.bytes())
			continue
		}
		if typ != hpSync {
			continue // auth: accepted without an answer
		}
		switch r.uvarint() {
		case 0: // step 1: answer with an empty step 2
			f.mu.Lock()
			f.docs[name] = append(f.docs[name], c)
			f.mu.Unlock()
			reply := putString(nil, name)
			reply = putUvarint(reply, hpSync)
			reply = putUvarint(reply, 1)
			c.send(putString(reply, "\x00\x00"))
		case 2:
			f.updates.Add(1)
			time.Sleep(f.relayDelay)
			f.mu.Lock()
			peers := append([]*fakeConn(nil), f.docs[name]...)
			f.mu.Unlock()
			for _, p := range peers {
				if p != c {
					p.send(m)
				}
			}
			ack := putString(nil, name)
			ack = putUvarint(ack, hpSyncStatus)
			c.send(putUvarint(ack, 1))
		}
	}
}

// awareness records an awareness update of one client's state.
func (f *fakeHocuspocus) awareness(u []byte) {
	r := reader{b: u}
	n, id, clock := r.uvarint(), r.uvarint(), r.uvarint()
	state := r.bytes()
	if r.err != nil || n != 1 || len(r.b) != 0 || !json.Valid(state) {
		f.badAware.Add(1)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.aware[id] = append(f.aware[id], clock)
}

// TestMeasureAgainstFakeServer runs the benchmark's phases against the
// fake server: every update sent in the steady phase must be counted as
// delivered to each other client of its document exactly once, with a
// latency no shorter than the server's relay delay; every acknowledgement
// of the two saturation rounds counted.
func TestMeasureAgainstFakeServer(t *testing.T) {
	const delay = 30 * time.Millisecond
	f, s := startFake(t, delay)
	o := options{clients: 12, docs: 3, rate: 10, steady: time.Second, sat: 500 * time.Millisecond, rounds: 2, quiet: time.Second}
	ss, err := open(o, s, "token", "fake")
	if err != nil {
		t.Fatal(err)
	}
	defer ss.close()
	saturationRounds(o, []*session{ss})
	res := ss.res
	if len(res.rounds) != o.rounds {
		t.Errorf("%d saturation rounds recorded, want %d", len(res.rounds), o.rounds)
	}
	for i, r := range res.rounds {
		if r <= 0 {
			t.Errorf("round %d: %.0f updates/s", i+1, r)
		}
	}
	perDoc := o.clients / o.docs
	if want := o.clients * 10; res.sent != want {
		t.Errorf("sent %d updates in the steady phase, want %d", res.sent, want)
	}
	if want := res.sent * (perDoc - 1); res.delivered != want {
		t.Errorf("counted %d deliveries, want %d (%d updates × %d peers)", res.delivered, want, res.sent, perDoc-1)
	}
	if res.p50 < delay || res.p99 > delay+time.Second {
		t.Errorf("latency p50 %s p99 %s, want at least the relay delay %s", res.p50, res.p99, delay)
	}
	if want := f.updates.Load() - int64(res.sent); res.satAcked != want || want == 0 {
		t.Errorf("saturation counted %d acknowledgements, the server received %d updates", res.satAcked, want)
	}
	if res.badRecv != 0 || res.lost != 0 || res.connectErrs != 0 {
		t.Errorf("unreadable %d, lost %d, connect errors %d", res.badRecv, res.lost, res.connectErrs)
	}
	if got := f.pongs.Load(); got != int64(o.clients) {
		t.Errorf("%d pongs, want one per client (%d)", got, o.clients)
	}
	// Saturated, a client keeps one update in flight: one every relay delay.
	if max := float64(o.clients) / delay.Seconds(); res.sustained > max*1.05 {
		t.Errorf("sustained %.0f updates/s, more than one in flight per client allows (%.0f)", res.sustained, max)
	}
}

// TestSilentClientsRenewTheirAwareness: a client that sent nothing for a
// while sends its awareness state, as a stock provider renews it, each
// time with the next clock; one that keeps sending sends none.
func TestSilentClientsRenewTheirAwareness(t *testing.T) {
	f, s := startFake(t, 0)
	o := options{clients: 4, docs: 2}
	run, err := newRun(o.clients, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer run.stop()
	var res result
	clients, err := connect(o, s, run, "token", &res)
	if err != nil {
		t.Fatal(err)
	}
	const silentFor = 200 * time.Millisecond
	go run.keepAware(clients, silentFor, run.stopped)
	busy := clients[0]
	for end := time.Now().Add(5 * silentFor); time.Now().Before(end); time.Sleep(silentFor / 4) {
		if err := busy.send(); err != nil {
			t.Fatal(err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := f.badAware.Load(); n != 0 {
		t.Fatalf("%d awareness updates the server could not read", n)
	}
	if got := f.aware[busy.id]; len(got) != 0 {
		t.Errorf("a client sending updates sent awareness %v, want none", got)
	}
	for _, c := range clients[1:] {
		got := f.aware[c.id]
		if len(got) < 2 {
			t.Errorf("client %d silent for %s: awareness clocks %v, want at least 2", c.id, 5*silentFor, got)
		}
		for i, clock := range got {
			if clock != uint64(i+1) {
				t.Errorf("client %d: awareness clocks %v, want 1, 2, ...", c.id, got)
				break
			}
		}
	}
}
