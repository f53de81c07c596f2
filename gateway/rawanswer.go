package gateway

import (
	"bufio"
	"errors"
	"net/http"
	"strings"

	"github.com/opencollab/backend/gateway/internal/h1"
	"github.com/opencollab/backend/gateway/internal/httpfield"
	"github.com/opencollab/backend/pkg/internalauth"
)

// The lean inbound server takes the service's answer head as written
// fields: parsing them into the client's header map only for the server to
// write them back out cost a fifth of the hop's own CPU. The fields are
// written exactly as the map's path writes them (canonical names, valid
// names only, values trimmed and sanitised, hop-by-hop fields dropped);
// only the order of differently named fields may differ, as it does
// between two runs of the map's path.

// rawHeadWriter is an inbound writer taking fields as bytes (h1's).
type rawHeadWriter interface {
	WriteHeaderRaw(code int, h h1.RawHead)
}

// rawWriter returns the raw writer under the gateway's recorder, or nil
// when the inbound server has none (net/http).
func rawWriter(w http.ResponseWriter) (*statusRecorder, rawHeadWriter) {
	rec, ok := w.(*statusRecorder)
	if !ok {
		return nil, nil
	}
	rw, _ := rec.ResponseWriter.(rawHeadWriter)
	return rec, rw
}

// rawAnswer is a service's answer head with its fields written out.
type rawAnswer struct {
	respHead
	h1.RawHead
	requestID bool // the service sent X-Request-Id
}

// readResponseHeadRaw reads an answer head, skipping interim 1xx answers
// other than 101, and writes its fields into dst's spare capacity. ok
// false: the head holds what only the header map handles (a Connection
// field naming other fields, or both framings); head is then to be parsed
// with parseHeaderFields.
func readResponseHeadRaw(br *bufio.Reader, dst []byte) (a rawAnswer, fields string, ok bool, err error) {
	for first := true; ; first = false {
		// The head is read in place: its fields are copied into dst, and
		// only a head left to the map's path is copied as a string.
		head, n, err := peekAnswerHead(br)
		if err != nil {
			if first && errors.Is(err, errNothingRead) {
				return a, "", false, errors.Join(errNoResponse, err)
			}
			return a, "", false, err
		}
		a, fields, ok, err = parseRawHead(head, dst)
		switch {
		case err != nil:
			fields = ""
		case !ok && n > 0:
			fields = strings.Clone(fields)
		}
		_, _ = br.Discard(n)
		if err != nil || !ok || a.status >= 200 || a.status == http.StatusSwitchingProtocols {
			return a, fields, ok, err
		}
	}
}

// parseRawHead parses one head into a rawAnswer; ok false returns the
// fields for the map's path.
func parseRawHead(head string, dst []byte) (a rawAnswer, fields string, ok bool, err error) {
	line, fields, _ := strings.Cut(head, "\n")
	rh, err := parseStatusLine(line)
	if err != nil {
		return a, "", false, err
	}
	a = rawAnswer{respHead: rh}
	if ok, err := a.parseFields(fields, dst); err != nil || !ok {
		a.respHead = rh
		return a, fields, false, err
	}
	return a, "", true, nil
}

// parseFields is parseHeaderFields writing into a.Fields instead of a map.
func (a *rawAnswer) parseFields(fields string, dst []byte) (bool, error) {
	b := dst[len(dst):]
	for n := 0; ; n++ {
		key, value, rest, err := nextField(fields, n)
		if err != nil {
			return false, err
		}
		if key == "" {
			break
		}
		fields = rest
		if err := a.frame(key, value); err != nil {
			return false, err
		}
		switch key {
		case "Connection":
			if !strings.EqualFold(value, "close") && !strings.EqualFold(value, "keep-alive") {
				return false, nil
			}
		case "Content-Type":
			a.ContentType = true
		case "Date":
			a.Date = true
		case internalauth.HeaderRequestID:
			a.requestID = true
		case "Close":
			return false, nil // dropped by the map's path after "Connection: close"
		}
		if skipResponseHeader(key) || !httpfield.ValidName(key) {
			continue
		}
		b = httpfield.Append(b, key, value)
	}
	if a.chunked {
		if a.contentLength >= 0 {
			return false, nil // the map's path drops the Content-Length
		}
		a.contentLength = -1
	}
	a.ContentLength = a.contentLength
	a.Fields = b
	return true, nil
}

// readAnswer reads the answer's head: as written fields when the inbound
// writer takes them (raw set), else into w's header map. scratch's spare
// capacity holds the fields until they are sent.
func readAnswer(br *bufio.Reader, w http.ResponseWriter, scratch []byte, vals []string) (a rawAnswer, raw bool, err error) {
	if _, rw := rawWriter(w); rw != nil {
		var fields string
		a, fields, raw, err = readResponseHeadRaw(br, scratch)
		if raw || err != nil {
			return a, raw, err
		}
		// Only the map's path handles this head.
		h := w.Header()
		if err := parseHeaderFields(fields, h, vals, &a.respHead); err != nil {
			return a, false, err
		}
		if a.status >= 200 || a.status == http.StatusSwitchingProtocols {
			return a, false, nil
		}
		clear(h)
	}
	a.respHead, err = readResponseHead(br, w.Header(), vals)
	return a, false, err
}

// writeAnswerHead sends the answer's status and head to the client, with
// the request id echoed when the service sent none. On the raw path the
// echo is one more written field after the service's (in the spare
// capacity of the buffer holding them), not a header map entry.
func writeAnswerHead(w http.ResponseWriter, a *rawAnswer, raw bool, id string) {
	if !raw {
		echoID(w.Header(), id)
		w.WriteHeader(a.status)
		return
	}
	if !a.requestID && id != "" {
		if _, ok := w.Header()[internalauth.HeaderRequestID]; !ok {
			a.Fields = httpfield.Append(a.Fields, internalauth.HeaderRequestID, id)
		}
	}
	rec, rw := rawWriter(w)
	rec.noteStatus(a.status)
	rw.WriteHeaderRaw(a.status, a.RawHead)
}
