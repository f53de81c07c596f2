package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Helpers shared by the end-to-end tests of svc-activity, svc-notify,
// svc-content and users/data/get (issue 3).

// e3Eventually calls check until it returns "" (done) or within has passed,
// then fails with the last thing check reported. Only for what the system
// settles on after a while: a migration's end, a feature switch cached for
// a few seconds.
func e3Eventually(t *testing.T, within time.Duration, what string, check func() string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		last := check()
		if last == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not reached within %s; last: %s", what, within, last)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// e3SetFeatures switches the features of c's workspace with the operator
// token.
func (s *stack) e3SetFeatures(c creds, features map[string]bool) {
	s.t.Helper()
	r := s.operator("/v2/workspace/features/update", map[string]any{"apiKey": c.apiKey, "features": features})
	if r.Code != 200 || r.Result["status"] != "success" {
		s.t.Fatalf("features/update %v: %d %s", features, r.Code, r.Raw)
	}
}

// e3User is a User object with a name.
func e3User(id string) map[string]any {
	return map[string]any{"userId": id, "name": "User " + id, "email": id + "@example.com"}
}

// e3ActivityIn is one item of activities/add.
func e3ActivityIn(id, feature, action, user string) map[string]any {
	a := map[string]any{"featureType": feature, "actionType": action, "actionUser": e3User(user)}
	if id != "" {
		a["id"] = id
	}
	if feature == "custom" {
		a["targetEntityId"] = "target-" + id
	}
	return a
}

// e3NotificationIn is a notifications/add body. Without recipients it goes
// to the whole organization; with them, to them only.
func e3NotificationIn(org, doc, id, actor string, recipients ...string) map[string]any {
	n := map[string]any{
		"organizationId": org, "documentId": doc, "actionUser": e3User(actor),
		"displayHeadlineMessageTemplate": "{actionUser} wrote", "displayBodyMessage": "Body of " + id,
	}
	if id != "" {
		n["notificationId"] = id
	}
	if len(recipients) > 0 {
		users := make([]any, len(recipients))
		for i, r := range recipients {
			users[i] = e3User(r)
		}
		n["notifyAll"], n["notifyUsers"] = false, users
	}
	return n
}

// e3CommentIn is one commentData item by author.
func e3CommentIn(author, text string) map[string]any {
	return map[string]any{"from": e3User(author), "commentText": text}
}

// e3AnnotationIn is one commentAnnotations item with a location (none when
// location is "") and comments by author.
func e3AnnotationIn(id, location, author string, texts ...string) map[string]any {
	comments := make([]any, len(texts))
	for i, text := range texts {
		comments[i] = e3CommentIn(author, text)
	}
	a := map[string]any{"commentData": comments}
	if id != "" {
		a["annotationId"] = id
	}
	if location != "" {
		a["location"] = map[string]any{"id": location, "locationName": "Name of " + location}
	}
	return a
}

// e3AddAnnotations adds annotations to org/doc as c and expects every item
// to succeed.
func (s *stack) e3AddAnnotations(c creds, org, doc string, items ...map[string]any) reply {
	s.t.Helper()
	list := make([]any, len(items))
	for i, it := range items {
		list[i] = it
	}
	r := s.okAs(c, "/v2/commentannotations/add", map[string]any{"organizationId": org, "documentId": doc, "commentAnnotations": list})
	for key, v := range r.DataMap() {
		if it, _ := v.(map[string]any); it["success"] != true {
			s.t.Fatalf("annotation %s not added: %s", key, r.Raw)
		}
	}
	return r
}

// e3AnnotationIDs lists the annotationId of each annotation of a
// commentannotations/get reply ("<null>" for null entries), in order.
func e3AnnotationIDs(t *testing.T, r reply) []string {
	t.Helper()
	arr, ok := r.Data().([]any)
	if !ok {
		t.Fatalf("data is not an array: %s", r.Raw)
	}
	out := make([]string, len(arr))
	for i, v := range arr {
		a, _ := v.(map[string]any)
		if a == nil {
			out[i] = "<null>"
			continue
		}
		out[i], _ = a["annotationId"].(string)
	}
	return out
}

// e3YjsCase is one line of tools/yjscheck/check.mjs: the successive full
// updates of one editor (base64) and what the last must read back as.
type e3YjsCase struct {
	Name       string   `json:"name"`
	Type       string   `json:"type"`
	ContentKey string   `json:"contentKey"`
	Updates    []string `json:"updates"`
	Expected   any      `json:"expected"`
}

// e3CheckWithYjs reads every case back with the real yjs library (node and
// tools/yjscheck/node_modules). Without them the test is skipped, or fails
// when CI=true, as svc-content's own read-back test does.
func e3CheckWithYjs(t *testing.T, cases []e3YjsCase) {
	t.Helper()
	script := e3YjsScript(t)
	var in bytes.Buffer
	for _, c := range cases {
		in.Write(append(mustJSON(t, c), '\n'))
	}
	cmd := exec.CommandContext(t.Context(), "node", script)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	passed := 0
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r struct {
			Name string `json:"name"`
			OK   *bool  `json:"ok"`
		}
		if json.Unmarshal(line, &r) != nil || r.OK == nil {
			continue // the summary line
		}
		if *r.OK {
			passed++
		} else {
			t.Errorf("yjs reads %s differently: %s", r.Name, line)
		}
	}
	if err != nil || passed != len(cases) {
		t.Fatalf("check.mjs passed %d of %d cases (%v):\n%s\n%s", passed, len(cases), err, out, stderr.String())
	}
}

func e3YjsScript(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.work above the working directory: cannot find tools/yjscheck")
		}
		dir = parent
	}
	tool := filepath.Join(dir, "tools", "yjscheck")
	missing := ""
	if _, err := exec.LookPath("node"); err != nil {
		missing = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(tool, "node_modules", "yjs", "package.json")); err != nil {
		missing = "yjs is not installed in tools/yjscheck (run: npm ci --prefix tools/yjscheck)"
	}
	if missing != "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("cannot check CRDT updates with yjs: %s", missing)
		}
		t.Skipf("skipping the yjs round trip: %s", missing)
	}
	return filepath.Join(tool, "check.mjs")
}

// e3JSON renders v compactly (HTML unescaped) for messages and
// comparisons.
func e3JSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
