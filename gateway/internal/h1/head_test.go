package h1

import (
	"bufio"
	"bytes"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzReadHead holds readHead's one-scan path for buffered heads to the
// line-by-line read: the same head, the same error and the same bytes left
// for the body, whatever the input and the limit.
func FuzzReadHead(f *testing.F) {
	for _, s := range []string{
		"POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}",
		"GET / HTTP/1.1\nHost: x\n\nbody",                 // bare LF
		"GET / HTTP/1.1\r\nHost: x\n\r\nrest",             // bare LF, then CRLF
		"\r\n\r\nGET / HTTP/1.1\r\n\r\n",                  // empty first lines
		"\nGET / HTTP/1.1\r\n\r\n",                        // an empty first line is not the end
		"GET / HTTP/1.1\r\nX: a\rb\r\n\r\n",               // a CR inside a line
		"GET / HTTP/1.1\r\nHost: x\r\n\r",                 // cut before the last LF
		"GET / HTTP/1.1\r\nHost: x\r\n",                   // no end
		"GET / HTTP/1.1\r\nA: 0123456789abcdef\r\n\r\nxx", // over a small limit
	} {
		f.Add([]byte(s), 4096)
		f.Add([]byte(s), 20)
	}
	f.Fuzz(func(t *testing.T, in []byte, limit int) {
		if limit <= 0 || limit > 1<<16 {
			return
		}
		fast := bufio.NewReaderSize(bytes.NewReader(in), 4096)
		_, _ = fast.Peek(1) // buffered, as the server's wait for a request leaves it
		slow := bufio.NewReaderSize(iotest.OneByteReader(bytes.NewReader(in)), 4096)
		gotHead, gotErr := readHead(fast, nil, limit)
		wantHead, wantErr := readHeadLines(slow, nil, limit)
		if !bytes.Equal(gotHead, wantHead) || (gotErr == nil) != (wantErr == nil) || gotErr == errHeaderTooLarge != (wantErr == errHeaderTooLarge) {
			t.Fatalf("%q limit %d: readHead %q, %v; line by line %q, %v", in, limit, gotHead, gotErr, wantHead, wantErr)
		}
		if gotErr == nil {
			gotRest, _ := io.ReadAll(fast)
			wantRest, _ := io.ReadAll(slow)
			if !bytes.Equal(gotRest, wantRest) {
				t.Fatalf("%q: left %q, line by line %q", in, gotRest, wantRest)
			}
		}
	})
}

// The one-scan path is taken for a buffered head: it must not fall back
// to the line loop for the requests the server sees most.
func TestReadHeadScansBufferedHeadOnce(t *testing.T) {
	in := "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
	if n := headEnd([]byte(in)); n != len(in)-2 {
		t.Fatalf("headEnd %d, want %d", n, len(in)-2)
	}
	if n := headEnd([]byte(in[:20])); n != 0 {
		t.Fatalf("headEnd of an incomplete head %d, want 0", n)
	}
}
