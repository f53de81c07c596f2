package gateway

import (
	"bufio"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
)

// bufPool recycles the buffers a proxied request is written from (its head
// and a small body) and bodies are streamed through.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, copyBufferSize); return &b }}

const (
	copyBufferSize = 32 << 10
	// inlineBodyMax: sized bodies up to this go upstream in the same write
	// as the head. Most API bodies are far smaller.
	inlineBodyMax = 16 << 10
)

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if cap(*b) == copyBufferSize {
		*b = (*b)[:0]
		bufPool.Put(b)
	}
}

// errClientGone: writing the answer to the client failed.
var errClientGone = errors.New("client connection failed while answering")

// bodyError marks a failure reading the client's body (for instance the
// body limit), as opposed to a failure of the service connection.
type bodyError struct{ err error }

func (e bodyError) Error() string { return e.err.Error() }
func (e bodyError) Unwrap() error { return e.err }

// readInline appends the whole sized body of r to b.
func readInline(b []byte, body io.Reader, n int64) ([]byte, error) {
	start := len(b)
	b = slices.Grow(b, int(n))[:start+int(n)]
	if _, err := io.ReadFull(body, b[start:]); err != nil {
		return b[:start], bodyError{err}
	}
	return b, nil
}

// streamBody copies the rest of a body to the service, chunk-encoded when
// its length is unknown.
func streamBody(w io.Writer, body io.Reader, chunked bool) error {
	bp := getBuf()
	defer putBuf(bp)
	buf := (*bp)[:cap(*bp)]
	if !chunked {
		_, err := io.CopyBuffer(writerOnly{w}, bodyReader{body}, buf)
		return err
	}
	// Each chunk is one write: its size line goes into the space kept
	// before the data, its CRLF after it.
	const lead = 10 // up to 8 hex digits and CRLF
	data := buf[lead : len(buf)-2]
	for {
		n, rerr := body.Read(data)
		if n > 0 {
			size := strconv.AppendInt(buf[:0:lead], int64(n), 16)
			start := lead - len(size) - 2
			copy(buf[start:], size)
			copy(buf[lead-2:], "\r\n")
			copy(buf[lead+n:], "\r\n")
			if _, err := w.Write(buf[start : lead+n+2]); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			_, err := io.WriteString(w, "0\r\n\r\n")
			return err
		}
		if rerr != nil {
			return bodyError{rerr}
		}
	}
}

// bodyReader tags the client body's read errors.
type bodyReader struct{ r io.Reader }

func (b bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		err = bodyError{err}
	}
	return n, err
}

// copyAnswerBody streams the service's body to the client as framed by rh.
// It returns whether the connection ended cleanly at a message boundary
// (and may be reused).
func copyAnswerBody(w http.ResponseWriter, br *bufio.Reader, rh respHead) (bool, error) {
	switch {
	case rh.chunked:
		return copyChunked(w, br)
	case rh.contentLength >= 0:
		return true, copySized(w, br, rh.contentLength)
	default: // until the service closes the connection
		for {
			if _, err := br.Peek(1); err != nil {
				if err == io.EOF {
					return false, nil
				}
				return false, err
			}
			if err := copySized(w, br, int64(br.Buffered())); err != nil {
				return false, err
			}
			flush(w)
		}
	}
}

// copySized writes n bytes from br to w straight out of br's buffer.
func copySized(w io.Writer, br *bufio.Reader, n int64) error {
	for n > 0 {
		if br.Buffered() == 0 {
			if _, err := br.Peek(1); err != nil {
				return unexpectedEOF(err)
			}
		}
		b, _ := br.Peek(int(min(int64(br.Buffered()), n)))
		k, err := w.Write(b)
		_, _ = br.Discard(k)
		n -= int64(k)
		if err != nil {
			return errors.Join(errClientGone, err)
		}
	}
	return nil
}

// copyChunked decodes a chunked body and lets the client's server frame it
// again, flushing every chunk so streamed answers stay streamed.
func copyChunked(w http.ResponseWriter, br *bufio.Reader) (bool, error) {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return false, unexpectedEOF(err)
		}
		size, ok := parseChunkSize(line)
		if !ok {
			return false, errBadAnswer
		}
		if size == 0 {
			return skipTrailer(br)
		}
		if err := copySized(w, br, size); err != nil {
			return false, err
		}
		if crlf, err := br.ReadSlice('\n'); err != nil || len(trimCRLF(crlf)) != 0 {
			return false, errBadAnswer
		}
		flush(w)
	}
}

// parseChunkSize reads "1a;ext\r\n".
func parseChunkSize(line []byte) (int64, bool) {
	line = trimCRLF(line)
	var size int64
	digits := 0
	for _, c := range line {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		case c == ';' || c == ' ' || c == '\t':
			return size, digits > 0
		default:
			return 0, false
		}
		if digits++; digits > 15 {
			return 0, false
		}
		size = size<<4 | int64(d)
	}
	return size, digits > 0
}

// skipTrailer consumes the trailer section; trailers are not forwarded.
func skipTrailer(br *bufio.Reader) (bool, error) {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return false, unexpectedEOF(err)
		}
		if len(trimCRLF(line)) == 0 {
			return true, nil
		}
	}
}

func trimCRLF(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func flush(w http.ResponseWriter) { _ = http.NewResponseController(w).Flush() }
