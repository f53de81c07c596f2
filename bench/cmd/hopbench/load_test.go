package main

import (
	"bufio"
	"strings"
	"testing"
	"time"
)

func TestParseWrk(t *testing.T) {
	out := `Running 4s test @ http://127.0.0.1:41234/v2/users/get
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     9.42ms    5.10ms  61.31ms   78.58%
    Req/Sec     3.44k   512.33     4.52k    70.00%
  27480 requests in 4.00s, 8.94MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 5
Requests/sec:   6870.00
Transfer/sec:      2.24MB
`
	c, err := parseWrk(out)
	if err != nil {
		t.Fatal(err)
	}
	if c.requests != 27480 || c.failures != 8 || c.elapsed < 3990*time.Millisecond || c.elapsed > 4010*time.Millisecond {
		t.Fatalf("got %+v", c)
	}
	if _, err := parseWrk("wrk: unable to connect"); err == nil {
		t.Fatal("accepted output without figures")
	}
}

func TestReadResponseFraming(t *testing.T) {
	in := "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" +
		"HTTP/1.1 403 Forbidden\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n" +
		"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n"
	br := bufio.NewReader(strings.NewReader(in))
	for _, want := range []int{200, 403, 204} {
		got, err := readResponse(br)
		if err != nil || got != want {
			t.Fatalf("status %d, err %v; want %d", got, err, want)
		}
	}
	if br.Buffered() != 0 {
		t.Fatalf("%d bytes left unread", br.Buffered())
	}
	if _, err := readResponse(bufio.NewReader(strings.NewReader("HTTP/1.1 200 OK\r\n\r\n"))); err == nil {
		t.Fatal("accepted an answer without framing")
	}
}
