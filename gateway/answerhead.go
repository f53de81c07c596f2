package gateway

import (
	"bufio"
	"bytes"
	"errors"
	"strconv"
	"strings"
	"unsafe"
)

// Reading a service's answer head: one string per head, its field lines
// cut off one by one.

// nextField cuts the n-th field line off fields: its canonical name and
// trimmed value, and what follows. An empty key: the head's end.
func nextField(fields string, n int) (key, value, rest string, err error) {
	if n > maxAnswerFields {
		return "", "", "", errBadAnswer
	}
	line, rest, _ := strings.Cut(fields, "\n")
	// strings.TrimRight(line, "\r\n") without building its cutset per call
	// (the line holds no LF after the cut).
	for len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	if len(line) == 0 {
		return "", "", rest, nil
	}
	name, value, ok := strings.Cut(line, ":")
	if !ok || len(name) == 0 || line[0] == ' ' || line[0] == '\t' {
		return "", "", "", errBadAnswer
	}
	return canonicalKey(name), strings.TrimSpace(value), rest, nil
}

// frame notes what a field says of the answer's framing and connection.
func (rh *respHead) frame(key, value string) error {
	switch key {
	case "Content-Length":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 0 || (rh.contentLength >= 0 && n != rh.contentLength) {
			return errBadAnswer
		}
		rh.contentLength = n
	case "Transfer-Encoding":
		if !strings.EqualFold(value, "chunked") {
			return errBadAnswer // no other coding is sent by our services
		}
		rh.chunked = true
	case "Connection":
		if strings.EqualFold(value, "close") {
			rh.keepAlive = false
		} else if strings.EqualFold(value, "keep-alive") {
			rh.keepAlive = true
		}
	}
	return nil
}

// errNothingRead: the connection ended before the first byte of a head.
var errNothingRead = errors.New("no bytes before the end of the connection")

// readAnswerHead returns one head, through its empty line, as one string.
// A head is almost always whole in the read buffer after one read: it is
// then copied once. A longer one is gathered line by line.
func readAnswerHead(br *bufio.Reader) (string, error) {
	head, n, err := peekAnswerHead(br)
	if err != nil || n == 0 {
		return head, err
	}
	head = strings.Clone(head[:n]) // detached from the buffer before it moves on
	_, _ = br.Discard(n)
	return head, nil
}

// peekAnswerHead returns one head. n > 0: the head is the first n bytes of
// br's buffer, viewed, not copied, so valid only until br is discarded
// past them or read again; the caller discards n. n == 0: the head was
// longer than the buffer and is a string of its own.
func peekAnswerHead(br *bufio.Reader) (head string, n int, err error) {
	if _, err := br.Peek(1); err != nil {
		return "", 0, errors.Join(errNothingRead, err)
	}
	for checked := false; ; {
		buf, _ := br.Peek(br.Buffered())
		if i := bytes.IndexByte(buf, '\n'); i >= 0 && !checked {
			// Not HTTP: fail now rather than wait for an empty line.
			if _, err := parseStatusLine(buf[:i]); err != nil {
				return "", 0, err
			}
			checked = true
		}
		if n := headLength(buf); n > 0 {
			return unsafe.String(&buf[0], n), n, nil
		}
		if br.Buffered() == br.Size() {
			head, err := readLongHead(br)
			return head, 0, err
		}
		if _, err := br.Peek(br.Buffered() + 1); err != nil {
			return "", 0, err
		}
	}
}

// headLength is the length of the head at the start of b through its
// empty line, or 0 when b does not hold all of it.
func headLength(b []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return 0
		}
		line := b[i : i+j+1]
		i += j + 1
		if len(line) == 1 || len(line) == 2 && line[0] == '\r' {
			return i
		}
	}
}

// readLongHead gathers a head longer than the read buffer.
func readLongHead(br *bufio.Reader) (string, error) {
	var head []byte
	for lines := 0; lines <= maxAnswerFields+1; lines++ {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return "", err
		}
		head = append(head, line...)
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return string(head), nil
		}
	}
	return "", errBadAnswer
}
