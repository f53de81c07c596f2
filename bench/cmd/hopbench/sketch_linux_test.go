//go:build linux

package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestMessageLen(t *testing.T) {
	t.Parallel()
	big := "POST / HTTP/1.1\r\nContent-Length: " + strconv.Itoa(sketchBuffer) + "\r\n\r\n"
	for _, tc := range []struct {
		name, msg string
		want      int
	}{
		{"head not ended", "GET / HTTP/1.1\r\nHost: x\r\n", 0},
		{"no body", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 27},
		{"body still coming", "POST / HTTP/1.1\r\ncontent-length: 5\r\n\r\nab", 0},
		{"body whole", "POST / HTTP/1.1\r\ncontent-length: 5\r\n\r\nabcde", 43},
		{"next request after it", "POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\naGET", 39},
		{"chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", -1},
		{"bad length", "POST / HTTP/1.1\r\nContent-Length: x\r\n\r\n", -1},
		{"larger than the buffer", big, -1},
	} {
		if got := messageLen([]byte(tc.msg)); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// Requests from several keep-alive clients come back with their own
// answers through the sketch and through the split, also after a client
// left with its request in flight, and after the service closed the
// pooled connections; a body they cannot carry ends that client's
// connection.
func TestSketchRelaysEachAnswerToItsClient(t *testing.T) {
	t.Parallel()
	for name, start := range map[string]func(string, int) (int, <-chan error, func(), error){
		"sketch": startSketch, "split": startSplit,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			relaysEachAnswer(t, start)
		})
	}
}

func relaysEachAnswer(t *testing.T, start func(string, int) (int, <-chan error, func(), error)) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/slow" {
			time.Sleep(50 * time.Millisecond)
		}
		fmt.Fprintf(w, "%s %d", r.URL.Path, len(b))
	}))
	t.Cleanup(up.Close)
	port, errc, stop, err := start(strings.TrimPrefix(up.URL, "http://"), 2)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}, Timeout: 5 * time.Second}

	// A client that sends and hangs up before the answer.
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(c, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
	_ = c.Close()

	clients := func(round int) {
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range 25 {
					path, body := fmt.Sprintf("/%d/g%d/r%d", round, g, i), strings.Repeat("x", g*100+i)
					resp, err := client.Post(base+path, "text/plain", strings.NewReader(body))
					if err != nil {
						t.Error(err)
						return
					}
					got, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if want := fmt.Sprintf("%s %d", path, len(body)); string(got) != want {
						t.Errorf("answer %q, want %q", got, want)
					}
				}
			})
		}
		wg.Wait()
	}
	clients(1)
	// The service closes the pooled connections: new ones are dialled.
	up.CloseClientConnections()
	time.Sleep(50 * time.Millisecond)
	clients(2)

	// Chunked: not carried; the client's connection is closed.
	req, _ := http.NewRequest(http.MethodPost, base+"/chunked", io.MultiReader(strings.NewReader("abc")))
	req.ContentLength = -1
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("chunked request answered %s", resp.Status)
	}
	select {
	case err := <-errc:
		t.Fatalf("a loop ended: %v", err)
	default:
	}
	stop()
	for range 2 {
		select {
		case <-errc: // closed: each loop ends
		case <-time.After(5 * time.Second):
			t.Fatal("stop did not end the loops")
		}
	}
	if _, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
		t.Error("the port still takes connections after stop")
	}
}
