package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"
)

// rawConn is a minimal keep-alive HTTP/1.1 client connection: the request
// is prebuilt bytes written in one call, the response is parsed only as far
// as framing needs. It keeps the load generator's own cost (and noise) far
// below net/http's, like wrk's.
type rawConn struct {
	c  net.Conn
	br *bufio.Reader
}

func dialRaw(addr string) (*rawConn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &rawConn{c: c, br: bufio.NewReaderSize(c, 16<<10)}, nil
}

func (rc *rawConn) close() { _ = rc.c.Close() }

// roundTrip sends req and reads the whole response; it returns the status.
func (rc *rawConn) roundTrip(req []byte) (int, error) {
	if _, err := rc.c.Write(req); err != nil {
		return 0, err
	}
	return readResponse(rc.br)
}

var errBadResponse = errors.New("malformed HTTP response")

// readResponse reads one response with a Content-Length or chunked body.
func readResponse(br *bufio.Reader) (int, error) {
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, errBadResponse
	}
	status, err := strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, errBadResponse
	}
	length, chunked := -1, false
	for {
		line, err = br.ReadSlice('\n')
		if err != nil {
			return 0, err
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, errBadResponse
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return 0, errBadResponse
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		}
	}
	switch {
	case chunked:
		return status, skipChunked(br)
	case length >= 0:
		_, err = br.Discard(length)
		return status, err
	default:
		return 0, fmt.Errorf("%w: no length", errBadResponse)
	}
}

func skipChunked(br *bufio.Reader) error {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
		if err != nil {
			return errBadResponse
		}
		if size == 0 {
			_, err = br.ReadSlice('\n') // the empty trailer line
			return err
		}
		if _, err := br.Discard(int(size) + 2); err != nil {
			return err
		}
	}
}

// buildRequest is the POST of the benchmark as bytes.
func buildRequest(addr string, headers [][2]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\n", benchPath, addr)
	for _, h := range headers {
		fmt.Fprintf(&b, "%s: %s\r\n", h[0], h[1])
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(benchBody), benchBody)
	return b.Bytes()
}
