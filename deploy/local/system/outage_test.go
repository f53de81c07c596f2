package system

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Degraded, not down: with Redis stopped, writes and reads answer (page
// tokens are sealed instead of stored); only a token Redis issued before
// the outage answers 503 UNAVAILABLE with Retry-After. The small,
// deterministic version of `make outagetest`.
func TestRedisOutageAnswersWithout5xx(t *testing.T) {
	t.Parallel()
	mr := miniredis.RunT(t)
	r := startFor(t, Options{
		DataDir: t.TempDir(), GatewayAddr: "127.0.0.1:0", RedisURL: "redis://" + mr.Addr(),
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)),
	})
	defer r.stop(t)
	users := make([]string, 6)
	for i := range users {
		users[i] = fmt.Sprintf(`{"userId":"u%d","name":"User %d","email":"u%d@example.com"}`, i, i, i)
	}
	mustOK(t, r, "/v2/users/add", `{"data":{"organizationId":"org-1","users":[`+strings.Join(users, ",")+`]}}`)
	for i := range 6 {
		mustOK(t, r, "/v2/activities/add", activity(fmt.Sprintf("before_%d", i)))
	}
	staleActivities := pageToken(t, mustOK(t, r, "/v2/activities/get", activitiesPage("")), "pageToken")
	staleUsers := pageToken(t, mustOK(t, r, "/v2/users/get", usersPage("")), "nextPageToken")

	mr.Close() // Redis is gone
	for i := range 3 {
		mustOK(t, r, "/v2/activities/add", activity(fmt.Sprintf("during_%d", i)))
	}
	tok := pageToken(t, mustOK(t, r, "/v2/activities/get", activitiesPage("")), "pageToken")
	mustOK(t, r, "/v2/activities/get", activitiesPage(tok))
	tok = pageToken(t, mustOK(t, r, "/v2/users/get", usersPage("")), "nextPageToken")
	mustOK(t, r, "/v2/users/get", usersPage(tok))
	for path, body := range map[string]string{"/v2/activities/get": activitiesPage(staleActivities), "/v2/users/get": usersPage(staleUsers)} {
		code, h, b := r.postWithHeaders(t, path, body)
		if code != http.StatusServiceUnavailable || h.Get("Retry-After") == "" || !strings.Contains(string(b), "UNAVAILABLE") || !strings.Contains(string(b), "retry") {
			t.Errorf("%s with a Redis token during the outage: HTTP %d, Retry-After %q, %s; want 503 UNAVAILABLE with Retry-After", path, code, h.Get("Retry-After"), b)
		}
	}

	// Redis back (with its data): the old token reads again once the
	// clients have reconnected, which is what Retry-After asks to wait for.
	if err := mr.Restart(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		code, b := r.post(t, "/v2/activities/get", activitiesPage(staleActivities))
		if code == http.StatusOK {
			break
		}
		if code != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("Redis token after Redis came back: HTTP %d %s", code, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func mustOK(t *testing.T, r *running, path, body string) []byte {
	t.Helper()
	code, b := r.post(t, path, body)
	if code != http.StatusOK {
		t.Fatalf("%s: HTTP %d %s", path, code, b)
	}
	return b
}

func activity(id string) string {
	return `{"data":{"organizationId":"org-1","documentId":"doc-1","activities":[{"id":"` + id +
		`","featureType":"custom","actionType":"outage.probe","targetEntityId":"` + id +
		`","actionUser":{"userId":"u0","name":"User 0","email":"u0@example.com"}}]}}`
}

func activitiesPage(token string) string {
	return `{"data":{"organizationId":"org-1","documentId":"doc-1","pageSize":2` + tokenField(token) + `}}`
}

func usersPage(token string) string {
	return `{"data":{"organizationId":"org-1","pageSize":2` + tokenField(token) + `}}`
}

func tokenField(token string) string {
	if token == "" {
		return ""
	}
	return `,"pageToken":"` + token + `"`
}

// pageToken returns result[field], failing when there is none.
func pageToken(t *testing.T, body []byte, field string) string {
	t.Helper()
	var reply struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	var tok string
	if err := json.Unmarshal(body, &reply); err == nil {
		_ = json.Unmarshal(reply.Result[field], &tok)
	}
	if tok == "" {
		t.Fatalf("no %s in %s", field, body)
	}
	return tok
}

func (r *running) postWithHeaders(t *testing.T, path, body string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, r.sys.GatewayURL+path, strings.NewReader(body))
	req.Header.Set("x-svc-api-key", r.sys.Credentials.APIKey)
	req.Header.Set("x-svc-auth-token", r.sys.Credentials.AuthToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}
