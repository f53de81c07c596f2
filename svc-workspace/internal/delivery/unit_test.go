package delivery

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

func TestSourceAndAction(t *testing.T) {
	t.Parallel()
	cases := []struct{ typ, source, action string }{
		{"comment.add", "comment", "add"},
		{"comment.reaction_add", "comment", "reactionAdd"},
		{"comment_annotation.status_change", "comment", "statusChange"},
		{"crdt.update_data", "crdt", "updateData"},
		{"activity.add", "activity", "add"},
		{"notification.delete", "notification", "delete"},
		{"migration.completed", "migration", "completed"},
	}
	for _, c := range cases {
		if src, act := sourceAndAction(c.typ); src != c.source || act != c.action {
			t.Errorf("%s → %s, %s; want %s, %s", c.typ, src, act, c.source, c.action)
		}
	}
}

func TestProtectRemovesPersonalFields(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, in, want string }{
		{
			name: "user object",
			in:   `{"actionUser":{"userId":"u1","name":"Ada","name_lowercase":"ada","email":"a@x.io","email_lowercase":"a@x.io","photoUrl":"p","initial":"A","color":"#f00"}}`,
			want: `{"actionUser":{"userId":"u1","color":"#f00"}}`,
		},
		{
			name: "nested users in arrays",
			in:   `{"comments":[{"from":{"userId":"u2","name":"Bob","clientUserName":"bob"},"commentText":"hi"}]}`,
			want: `{"comments":[{"from":{"userId":"u2"},"commentText":"hi"}]}`,
		},
		{
			name: "names of things stay, e-mails go everywhere",
			in:   `{"document":{"name":"Roadmap"},"organization":{"name":"Acme","email":"ops@acme.io"}}`,
			want: `{"document":{"name":"Roadmap"},"organization":{"name":"Acme"}}`,
		},
		{
			name: "numbers kept exactly",
			in:   `{"timestamp":1700000000123456789,"ratio":0.1}`,
			want: `{"timestamp":1700000000123456789,"ratio":0.1}`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := protect([]byte(c.in))
			if err != nil {
				t.Fatal(err)
			}
			if !jsonEqual(t, got, []byte(c.want)) {
				t.Errorf("got %s, want %s", got, c.want)
			}
			if strings.Contains(c.in, "1700000000123456789") && !strings.Contains(string(got), "1700000000123456789") {
				t.Errorf("a number changed: %s", got)
			}
		})
	}
}

func TestTransformEncodes(t *testing.T) {
	t.Parallel()
	payload := []byte(`{"event":"comment.add","data":{"x":1}}`)
	got, err := transform(payload, webhook.Config{EncodeData: true})
	if err != nil {
		t.Fatal(err)
	}
	var b struct{ EncodedPayload string }
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	if raw, _ := base64.StdEncoding.DecodeString(b.EncodedPayload); !bytes.Equal(raw, payload) {
		t.Errorf("encodedPayload decodes to %s", raw)
	}
	if plain, _ := transform(payload, webhook.Config{}); !bytes.Equal(plain, payload) {
		t.Errorf("no transform changed the payload: %s", plain)
	}
}

func TestTransformEncryptsForEveryKeyForm(t *testing.T) {
	t.Parallel()
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkix, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	pkcs1 := x509.MarshalPKCS1PublicKey(&priv.PublicKey)
	b64 := base64.StdEncoding.EncodeToString
	keys := map[string]string{
		"pkix":         b64(pkix),
		"pkcs1":        b64(pkcs1),
		"pem":          string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix})),
		"wrapped text": b64(pkix)[:40] + "\n" + b64(pkix)[40:],
	}
	payload := bytes.Repeat([]byte("0123456789abcdef"), 4) // a whole number of blocks: padding adds one
	for name, key := range keys {
		t.Run(name, func(t *testing.T) {
			got, err := transform(payload, webhook.Config{EncryptData: true, EncodeData: true, PublicKey: key})
			if err != nil {
				t.Fatal(err)
			}
			var b struct{ EncryptedData, EncryptedKey, IV string }
			if err := json.Unmarshal(got, &b); err != nil {
				t.Fatal(err)
			}
			data, _ := base64.StdEncoding.DecodeString(b.EncryptedData)
			wrapped, _ := base64.StdEncoding.DecodeString(b.EncryptedKey)
			iv, _ := base64.StdEncoding.DecodeString(b.IV)
			aesKey, err := rsa.DecryptOAEP(sha256.New(), nil, priv, wrapped, nil)
			if err != nil {
				t.Fatal(err)
			}
			block, _ := aes.NewCipher(aesKey)
			plain := make([]byte, len(data))
			cipher.NewCBCDecrypter(block, iv).CryptBlocks(plain, data)
			if len(plain) != len(payload)+aes.BlockSize || !bytes.Equal(plain[:len(payload)], payload) {
				t.Errorf("decrypted %q", plain)
			}
		})
	}
}

func TestTransformRefusesBadKeys(t *testing.T) {
	t.Parallel()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, _ := x509.MarshalPKIXPublicKey(&ec.PublicKey)
	cases := map[string]struct{ key, err string }{
		"empty":      {"", "no publicKey"},
		"not base64": {"%%%", "not base64"},
		"not a key":  {"aGVsbG8=", "not an RSA public key"},
		"not rsa":    {base64.StdEncoding.EncodeToString(ecDER), "not an RSA key"},
	}
	for name, c := range cases {
		_, err := transform([]byte(`{}`), webhook.Config{EncryptData: true, PublicKey: c.key})
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want %q", name, err, c.err)
		}
	}
}

// TestSignatureVerifiesWithTheLibrary checks signHeaders against the
// Standard Webhooks reference library.
func TestSignatureVerifiesWithTheLibrary(t *testing.T) {
	t.Parallel()
	key := []byte("a secret of at least twenty-four bytes")
	body := []byte(`{"event":"comment.add"}`)
	h := http.Header{}
	signHeaders(h, "msg_1", time.Now(), body, [][]byte{key})
	wh, _ := standardwebhooks.NewWebhookRaw(key)
	if err := wh.Verify(body, h); err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify([]byte(`{"event":"comment.delete"}`), h); err == nil {
		t.Error("a changed body verifies")
	}
	want, _ := wh.Sign("msg_1", time.Unix(mustInt(t, h.Get("webhook-timestamp")), 0), body)
	if h.Get("webhook-signature") != want {
		t.Errorf("signature %q, library %q", h.Get("webhook-signature"), want)
	}
}

func TestRefusePrivateAtDial(t *testing.T) {
	t.Parallel()
	if err := refusePrivate("tcp", "127.0.0.1:80", nil); err == nil || !strings.Contains(err.Error(), "not public") {
		t.Errorf("loopback: %v", err)
	}
	if err := refusePrivate("tcp", "[fd00::1]:443", nil); err == nil {
		t.Error("unique local address allowed")
	}
	if err := refusePrivate("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("public address refused: %v", err)
	}
}

func TestRateLimiter(t *testing.T) {
	t.Parallel()
	l := newRateLimiter()
	limit := 2
	t0 := time.Unix(1000, 0)
	if w := l.take("ep", nil, t0); w != 0 {
		t.Errorf("no limit waited %v", w)
	}
	for i := range 2 { // a second's burst
		if w := l.take("ep", &limit, t0); w != 0 {
			t.Fatalf("token %d: wait %v", i, w)
		}
	}
	if w := l.take("ep", &limit, t0); w != 500*time.Millisecond {
		t.Errorf("empty bucket: wait %v, want 500ms", w)
	}
	if b := l.blockedAt(t0.Add(499 * time.Millisecond)); len(b) != 1 || b[0] != "ep" {
		t.Errorf("blocked %v, want [ep]", b)
	}
	if b := l.blockedAt(t0.Add(500 * time.Millisecond)); len(b) != 0 {
		t.Errorf("blocked %v after the wait", b)
	}
	if w := l.take("ep", &limit, t0.Add(500*time.Millisecond)); w != 0 {
		t.Errorf("after refilling one token: wait %v", w)
	}
	if w := l.take("other", &limit, t0); w != 0 {
		t.Errorf("buckets are per endpoint: wait %v", w)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = n*10 + int64(c-'0')
	}
	return n
}
