package h1

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
)

var errBodyRead = errors.New("http: invalid Read on closed Body")

// body reads one request's body off the connection: Content-Length or
// chunked framing, sending "100 Continue" before the first read when the
// client asked for it. It is reused for every request of a connection.
type body struct {
	c         *conn
	br        *bufio.Reader
	remaining int64 // sized: bytes left; chunked: bytes left in the chunk
	chunked   bool
	done      bool // the whole body has been read
	closed    bool
	inChunk   bool
	err       error
	continue_ bool // send 100 Continue before the first read
}

func (b *body) reset(r *http.Request) {
	*b = body{c: b.c, br: b.br, remaining: r.ContentLength, chunked: r.ContentLength < 0}
	b.done = r.ContentLength == 0
}

func (b *body) Read(p []byte) (int, error) {
	if b.closed {
		return 0, errBodyRead
	}
	if b.done {
		return 0, io.EOF
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.continue_ {
		b.continue_ = false
		if err := b.c.writeContinue(); err != nil {
			b.err = err
			return 0, err
		}
	}
	var n int
	var err error
	if b.chunked {
		n, err = b.readChunked(p)
	} else {
		n, err = b.readSized(p)
	}
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

func (b *body) readSized(p []byte) (int, error) {
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.br.Read(p)
	b.remaining -= int64(n)
	if b.remaining == 0 {
		b.done = true
		return n, io.EOF
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (b *body) readChunked(p []byte) (int, error) {
	if b.remaining <= 0 {
		if b.remaining == 0 && b.inChunk {
			if err := b.crlf(); err != nil {
				return 0, err
			}
		}
		size, err := b.chunkSize()
		if err != nil {
			return 0, err
		}
		if size == 0 {
			if err := b.trailer(); err != nil {
				return 0, err
			}
			b.done = true
			return 0, io.EOF
		}
		b.remaining, b.inChunk = size, true
	}
	if int64(len(p)) > b.remaining {
		p = p[:b.remaining]
	}
	n, err := b.br.Read(p)
	b.remaining -= int64(n)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// The chunked-body errors carry net/http's texts: handlers may show them.
var (
	errChunk         = errors.New("malformed chunked encoding")
	errChunkByte     = errors.New("invalid byte in chunk length")
	errChunkEmpty    = errors.New("empty hex number for chunk length")
	errChunkTooLarge = errors.New("http chunk length too large")
)

// crlf reads the line ending after a chunk's data.
func (b *body) crlf() error {
	var two [2]byte
	if _, err := io.ReadFull(b.br, two[:]); err != nil {
		return unexpected(err)
	}
	if two != [2]byte{'\r', '\n'} {
		return errChunk
	}
	return nil
}

// chunkSize reads "1a;ext\r\n" as net/http's chunked reader does.
func (b *body) chunkSize() (int64, error) {
	line, err := b.br.ReadSlice('\n')
	if err != nil {
		return 0, unexpected(err)
	}
	line = bytes.TrimRight(line, " \t\r\n")
	if i := bytes.IndexByte(line, ';'); i >= 0 {
		line = line[:i]
	}
	if len(line) == 0 {
		return 0, errChunkEmpty
	}
	if len(line) > 16 {
		return 0, errChunkTooLarge
	}
	var size uint64
	for _, c := range line {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, errChunkByte
		}
		size = size<<4 | uint64(c)
	}
	if size >= 1<<62 {
		return 0, errChunkTooLarge
	}
	return int64(size), nil
}

// trailer skips the trailer section: the gateway forwards no trailers.
func (b *body) trailer() error {
	for range 64 {
		line, err := b.br.ReadSlice('\n')
		if err != nil {
			return unexpected(err)
		}
		if string(line) == "\r\n" || string(line) == "\n" {
			return nil
		}
	}
	return errChunk
}

func (b *body) Close() error {
	b.closed = true
	return nil
}

// drain reads what the handler left of the body, up to max bytes, so the
// connection can carry the next request; false means close it instead.
func (b *body) drain(max int64) bool {
	if b.done {
		return true
	}
	if b.err != nil {
		return false
	}
	b.closed = false
	var scratch [512]byte
	for max > 0 {
		n, err := b.Read(scratch[:])
		max -= int64(n)
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
	return false
}

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
