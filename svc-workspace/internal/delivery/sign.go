package delivery

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Standard Webhooks headers.
const (
	headerID        = "webhook-id"
	headerTimestamp = "webhook-timestamp"
	headerSignature = "webhook-signature"
)

// signHeaders sets the Standard Webhooks headers of one attempt: the
// message id (the same on every attempt, for the receiver's dedupe), this
// attempt's time and one "v1,<base64 HMAC-SHA256(id.timestamp.body)>" per
// secret — two during a secret rotation, so receivers holding either verify.
func signHeaders(h http.Header, id string, at time.Time, body []byte, secrets [][]byte) {
	ts := strconv.FormatInt(at.Unix(), 10)
	sigs := make([]string, 0, len(secrets))
	for _, key := range secrets {
		sigs = append(sigs, "v1,"+signature(key, id, ts, body))
	}
	h.Set(headerID, id)
	h.Set(headerTimestamp, ts)
	h.Set(headerSignature, strings.Join(sigs, " "))
}

func signature(key []byte, id, ts string, body []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id))
	mac.Write([]byte{'.'})
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}
