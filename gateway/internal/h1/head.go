package h1

import (
	"bufio"
	"bytes"
	"errors"
)

// errHeaderTooLarge answers 431, like net/http.
var errHeaderTooLarge = errors.New("request header too large")

// readHead reads one request head (through the empty line) into buf. A
// head already in br's buffer (a keep-alive request usually arrives in one
// segment) is found by one scan and copied once; otherwise it is read line
// by line as its bytes arrive.
func readHead(br *bufio.Reader, buf []byte, limit int) ([]byte, error) {
	if len(buf) == 0 {
		p, _ := br.Peek(br.Buffered())
		if n := headEnd(p); n > 0 && n <= limit {
			buf = append(buf, p[:n]...)
			_, _ = br.Discard(n)
			return buf, nil
		}
	}
	return readHeadLines(br, buf, limit)
}

// headEnd is the length of the head at the start of p: through the first
// empty line ("\n" or "\r\n") after the first line, as readHeadLines ends
// it; 0 when p holds no complete head.
func headEnd(p []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(p[i:], '\n')
		if j < 0 {
			return 0
		}
		i += j + 1 // the next line's start
		switch {
		case i < len(p) && p[i] == '\n':
			return i + 1
		case i+1 < len(p) && p[i] == '\r' && p[i+1] == '\n':
			return i + 2
		}
	}
}

// readHeadLines reads a head line by line into buf.
func readHeadLines(br *bufio.Reader, buf []byte, limit int) ([]byte, error) {
	for {
		line, err := br.ReadSlice('\n')
		if len(buf)+len(line) > limit {
			return buf, errHeaderTooLarge
		}
		buf = append(buf, line...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return buf, err
		}
		if len(line) <= 2 && (len(line) == 1 || line[0] == '\r') && len(buf) > len(line) {
			return buf, nil
		}
	}
}
