package h1

import (
	"bufio"
	"bytes"
	"net/http"

	"github.com/opencollab/backend/gateway/internal/httpfield"
)

// parseSlow is http.ReadRequest plus the checks http.Server adds.
func parseSlow(r *http.Request, head []byte) error {
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
	if err != nil {
		return err
	}
	// ReadRequest drops the Host field; the server's checks need it.
	if req.ProtoMajor != 1 && !(req.ProtoMajor == 2 && req.ProtoMinor == 0 && req.Method == "PRI") {
		return &statusError{http.StatusHTTPVersionNotSupported, "unsupported protocol version"}
	}
	hosts := hostFields(head)
	if req.ProtoAtLeast(1, 1) && len(hosts) == 0 && req.Method != http.MethodConnect {
		return &statusError{http.StatusBadRequest, "missing required Host header"}
	}
	if len(hosts) > 1 {
		return &statusError{http.StatusBadRequest, "too many Host headers"}
	}
	if len(hosts) == 1 && !validHost(hosts[0]) {
		return &statusError{http.StatusBadRequest, "malformed Host header"}
	}
	for k, vv := range req.Header {
		if !httpfield.ValidName(k) {
			return &statusError{http.StatusBadRequest, "invalid header name"}
		}
		for _, v := range vv {
			if !validFieldValue(v) {
				return &statusError{http.StatusBadRequest, "invalid header value"}
			}
		}
	}
	r.Method, r.URL, r.Proto, r.ProtoMajor, r.ProtoMinor = req.Method, req.URL, req.Proto, req.ProtoMajor, req.ProtoMinor
	r.Header, r.ContentLength, r.TransferEncoding, r.Close = req.Header, req.ContentLength, req.TransferEncoding, req.Close
	r.Host, r.RequestURI, r.Trailer = req.Host, req.RequestURI, req.Trailer
	return nil
}

// hostFields returns the Host field values of a head ReadRequest accepted.
func hostFields(head []byte) []string {
	var hosts []string
	lines := bytes.Split(head, []byte("\n"))
	for _, line := range lines[1:] {
		if len(bytes.TrimRight(line, "\r")) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && bytes.EqualFold(name, []byte("Host")) {
			hosts = append(hosts, string(bytes.Trim(value, " \t\r")))
		}
	}
	return hosts
}

// statusError is a refusal net/http explains to the client.
type statusError struct {
	code int
	text string
}

func (e *statusError) Error() string { return e.text }

func validFieldValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
