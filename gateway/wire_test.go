package gateway

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// The answer head parser gives the same header whether the head arrives in
// one read, byte by byte, or longer than the read buffer.
func TestReadResponseHeadHowEverItArrives(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 300)
	head := "HTTP/1.1 100 Continue\r\nX-Interim: dropped\r\n\r\n" +
		"HTTP/1.1 201 Created\r\ncontent-type: application/json\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n" +
		"Connection: keep-alive, X-Hop\r\nX-Hop: gone\r\nKeep-Alive: timeout=5\r\nX-Long: " + long + "\r\n" +
		"Content-Length: 7\r\n\r\npayload"
	want := http.Header{"Content-Type": {"application/json"}, "Set-Cookie": {"a=1", "b=2"},
		"X-Long": {long}, "Content-Length": {"7"}}
	for name, br := range map[string]*bufio.Reader{
		"one read":           bufio.NewReaderSize(strings.NewReader(head), 4096),
		"byte by byte":       bufio.NewReaderSize(iotest.OneByteReader(strings.NewReader(head)), 4096),
		"longer than buffer": bufio.NewReaderSize(strings.NewReader(head), 16),
	} {
		if name == "longer than buffer" {
			// bufio's minimum is 16 bytes: the long field cannot fit, so
			// this reader must fail, as the line reader did.
			if _, err := readResponseHead(br, http.Header{}, nil); err == nil {
				t.Errorf("%s: a line longer than the buffer was accepted", name)
			}
			continue
		}
		h := http.Header{}
		rh, err := readResponseHead(br, h, make([]string, 0, 2))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rh.status != 201 || rh.contentLength != 7 || !rh.keepAlive || rh.chunked {
			t.Errorf("%s: framing %+v", name, rh)
		}
		if !reflect.DeepEqual(h, want) {
			t.Errorf("%s: header %v, want %v", name, h, want)
		}
		if rest, _ := io.ReadAll(br); string(rest) != "payload" {
			t.Errorf("%s: body %q", name, rest)
		}
	}
}

// A head of many short fields, longer than the buffer, is gathered line by
// line and still bounded in fields.
func TestReadResponseHeadLongerThanBuffer(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("HTTP/1.1 200 OK\r\n")
	for range 100 {
		b.WriteString("X-Field: 0123456789\r\n")
	}
	b.WriteString("Content-Length: 0\r\n\r\n")
	h := http.Header{}
	rh, err := readResponseHead(bufio.NewReaderSize(strings.NewReader(b.String()), 256), h, nil)
	if err != nil || rh.status != 200 || len(h["X-Field"]) != 100 {
		t.Fatalf("status %d, %d fields, err %v", rh.status, len(h["X-Field"]), err)
	}
	b.Reset()
	b.WriteString("HTTP/1.1 200 OK\r\n")
	for range maxAnswerFields + 2 {
		b.WriteString("X-Field: 0123456789\r\n")
	}
	b.WriteString("\r\n")
	for _, size := range []int{256, 64 << 10} {
		if _, err := readResponseHead(bufio.NewReaderSize(strings.NewReader(b.String()), size), http.Header{}, nil); err == nil {
			t.Errorf("buffer %d: %d fields accepted", size, maxAnswerFields+2)
		}
	}
}

// Something that is not HTTP fails at its first line: the parser does not
// wait for an empty line that may never come.
func TestReadResponseHeadFailsAtFirstLine(t *testing.T) {
	t.Parallel()
	r := io.MultiReader(strings.NewReader("SMTP ready\r\n"), blockingReader{t})
	if _, err := readResponseHead(bufio.NewReader(r), http.Header{}, nil); !errors.Is(err, errBadAnswer) {
		t.Fatalf("err %v, want errBadAnswer", err)
	}
	// A connection closed before any byte may be retried; one closed
	// mid-head may not.
	if _, err := readResponseHead(bufio.NewReader(strings.NewReader("")), http.Header{}, nil); !errors.Is(err, errNoResponse) {
		t.Fatalf("empty: err %v, want errNoResponse", err)
	}
	if _, err := readResponseHead(bufio.NewReader(strings.NewReader("HTTP/1.1 200 OK\r\n")), http.Header{}, nil); err == nil || errors.Is(err, errNoResponse) {
		t.Fatalf("cut: err %v", err)
	}
}

// blockingReader fails the test if read: the parser should have stopped.
type blockingReader struct{ t *testing.T }

func (b blockingReader) Read([]byte) (int, error) {
	b.t.Error("read past a bad status line")
	return 0, io.EOF
}
