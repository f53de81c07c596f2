package delivery

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/nodetool"
)

// snippetCase is one delivery for the verification snippets of
// docs/webhooks.md, signed by signHeaders like a real attempt.
type snippetCase struct {
	Name    string            `json:"name"`
	Secret  string            `json:"secret"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	Valid   bool              `json:"-"`
}

func snippetCases(t *testing.T) []snippetCase {
	key, old, other := snippetKey(t), snippetKey(t), snippetKey(t)
	secret := func(k []byte) string { return "whsec_" + base64.StdEncoding.EncodeToString(k) }
	body := []byte(`{"event":"comment_annotation.add","actionType":"add","source":"comment","data":{"annotationId":"a-1"},"webhookId":"ev_1:ep_1","platform":"sdk"}`)
	sign := func(at time.Time, keys ...[]byte) map[string]string {
		h := http.Header{}
		signHeaders(h, "ev_1:ep_1", at, body, keys)
		return map[string]string{"webhook-id": h.Get("webhook-id"), "webhook-timestamp": h.Get("webhook-timestamp"), "webhook-signature": h.Get("webhook-signature")}
	}
	now := time.Now()
	tampered := strings.Replace(string(body), "a-1", "a-2", 1)
	return []snippetCase{
		{Name: "signed", Secret: secret(key), Headers: sign(now, key), Body: string(body), Valid: true},
		{Name: "during rotation, old secret", Secret: secret(old), Headers: sign(now, key, old), Body: string(body), Valid: true},
		{Name: "tampered body", Secret: secret(key), Headers: sign(now, key), Body: tampered},
		{Name: "other secret", Secret: secret(other), Headers: sign(now, key), Body: string(body)},
		{Name: "replayed an hour later", Secret: secret(key), Headers: sign(now.Add(-time.Hour), key), Body: string(body)},
	}
}

// codeBlock returns the first fenced block of lang in docs/webhooks.md.
func codeBlock(t *testing.T, root, lang string) string {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "webhooks.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```" + lang + "\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/webhooks.md has no %s block", lang)
	}
	return string(m[1])
}

// TestWebhookDocsNodeSnippetVerifiesOurSignatures runs the Node snippet of
// docs/webhooks.md, with the stock standardwebhooks package, on deliveries
// signed by our signer: signed and rotated ones pass, the rest fail.
func TestWebhookDocsNodeSnippetVerifiesOurSignatures(t *testing.T) {
	t.Parallel()
	tool := nodetool.Dir(t, "docscheck", "standardwebhooks")
	root := filepath.Dir(filepath.Dir(tool))
	// The snippet must sit in tools/docscheck to resolve its import.
	f, err := os.CreateTemp(tool, "snippet-*.mjs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(f.Name()) })
	if _, err := f.WriteString(codeBlock(t, root, "js")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cases := snippetCases(t)
	in, _ := json.Marshal(cases)
	cmd := exec.Command("node", filepath.Join(tool, "webhook.mjs"), f.Name())
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("webhook.mjs: %v\n%s", err, stderr.String())
	}
	var got []struct {
		OK      bool           `json:"ok"`
		Payload map[string]any `json:"payload"`
		Error   string         `json:"error"`
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("webhook.mjs wrote %q: %v", out, err)
	}
	for i, c := range cases {
		if got[i].OK != c.Valid {
			t.Errorf("%s: verified = %v (%s), want %v", c.Name, got[i].OK, got[i].Error, c.Valid)
		}
		if c.Valid && got[i].Payload["event"] != "comment_annotation.add" {
			t.Errorf("%s: payload %v", c.Name, got[i].Payload)
		}
	}
}

// TestWebhookDocsPythonSnippetVerifiesOurSignatures does the same for the
// Python snippet when python3 is installed (it needs nothing else).
func TestWebhookDocsPythonSnippetVerifiesOurSignatures(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	wd, _ := os.Getwd()
	root := filepath.Join(wd, "..", "..", "..")
	cases := snippetCases(t)
	in, _ := json.Marshal(cases)
	script := codeBlock(t, root, "python") + `
import sys
out = []
for c in json.load(sys.stdin):
    try:
        verify_delivery(c["secret"], c["headers"], c["body"].encode())
        out.append(True)
    except ValueError:
        out.append(False)
print(json.dumps(out))
`
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	var got []bool
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(cases) {
		t.Fatalf("python wrote %q: %v", out, err)
	}
	for i, c := range cases {
		if got[i] != c.Valid {
			t.Errorf("%s: verified = %v, want %v", c.Name, got[i], c.Valid)
		}
	}
}

func snippetKey(t *testing.T) []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return k
}
