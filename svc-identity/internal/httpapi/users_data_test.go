package httpapi_test

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/svc-identity/internal/httpapi"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/userdata"
)

const userDataGet = "/v2/users/data/get"

// userData is what the fake downstream services hold for one user.
type userData struct {
	comments, reactions, recordings, notifications int
}

// items names n items of one array, in order.
func items(array string, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = map[string]any{"id": fmt.Sprintf("%s-%03d", array, i), "seq": i}
	}
	return out
}

// slice serves one page of all from the cursor ("" = start): the items
// and the next cursor ("" when exhausted).
func slice(all []any, cursor string, limit int) ([]any, string) {
	from, _ := strconv.Atoi(cursor)
	to := min(from+limit, len(all))
	if to == len(all) {
		return all[from:to], ""
	}
	return all[from:to], strconv.Itoa(to)
}

// dataEnv is identity with fake svc-content and svc-notify serving data.
type dataEnv struct {
	*env
	content, notify *fakeService
}

func newDataEnv(t *testing.T, data userData) *dataEnv {
	t.Helper()
	signer := internalauth.NewSigner("test-internal-secret")
	arrays := map[string][]any{
		"comments": items("comment", data.comments), "reactions": items("reaction", data.reactions),
		"recordings": items("recording", data.recordings),
	}
	notes := items("notification", data.notifications)
	d := &dataEnv{}
	d.content = newFakeService(t, signer, userdata.ContentPath, func(body map[string]any) (any, error) {
		limit := int(body["limit"].(float64))
		cursors, _ := body["cursors"].(map[string]any)
		out, next := map[string]any{}, map[string]any{}
		for name, all := range arrays {
			// Arrays not asked for are served from their start, as a
			// service that reads an absent cursor as "start" would: the
			// caller must not show them again.
			cur, _ := cursors[name].(string)
			page, n := slice(all, cur, limit)
			out[name] = page
			if n != "" {
				next[name] = n
			}
		}
		out["next"] = next
		return out, nil
	})
	d.notify = newFakeService(t, signer, userdata.NotificationsPath, func(body map[string]any) (any, error) {
		page, n := slice(notes, body["after"].(string), int(body["limit"].(float64)))
		var next any
		if n != "" {
			next = n
		}
		return map[string]any{"items": page, "next": next}, nil
	})
	d.env = newEnvWith(t, func(ids *identity.Service, pages *pagetoken.Store) httpapi.Backends {
		return httpapi.Backends{UserData: userdata.NewService(
			svcclient.New("svc-content", d.content.url(), signer),
			svcclient.New("svc-notify", d.notify.url(), signer),
			pages, ids)}
	})
	return d
}

// arrays returns the ids in each of the four arrays of a page, failing
// unless all four are JSON arrays.
func arrays(t *testing.T, r response) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, name := range []string{"comments", "reactions", "recordings", "notifications"} {
		list, ok := r.dataMap()[name].([]any)
		if !ok {
			t.Fatalf("data.%s is not an array: %s", name, r.raw)
		}
		ids := []string{}
		for _, it := range list {
			ids = append(ids, it.(map[string]any)["id"].(string))
		}
		out[name] = ids
	}
	return out
}

// checkSigned fails unless every request came from identity's service
// principal for workspace ws, organization o1 and user u1.
func checkSigned(t *testing.T, reqs []fakeRequest, ws string) {
	t.Helper()
	for _, r := range reqs {
		if r.Principal != internalauth.Service("identity") {
			t.Fatalf("%s: principal %q", r.Path, r.Principal)
		}
		if r.Body["workspaceId"] != ws || r.Body["organizationId"] != "o1" || r.Body["userId"] != "u1" || r.Body["limit"] != float64(100) {
			t.Fatalf("%s: body %v", r.Path, r.Body)
		}
	}
}

func contentCursorKeys(t *testing.T, reqs []fakeRequest) []string {
	t.Helper()
	if len(reqs) != 1 {
		t.Fatalf("svc-content asked %d times, want once", len(reqs))
	}
	cursors, _ := reqs[0].Body["cursors"].(map[string]any)
	return slices.Sorted(maps.Keys(cursors))
}

func TestUserDataPagesUntilEveryArrayIsExhausted(t *testing.T) {
	d := newDataEnv(t, userData{comments: 250, reactions: 0, recordings: 120, notifications: 30})
	d.addUsers("ws1", map[string]any{"organizationId": "o1"}, "u1")
	query := map[string]any{"organizationId": "o1", "userId": "u1"}

	// Page 1: every array from its start.
	r := d.ok("ws1", userDataGet, query)
	got := arrays(t, r)
	if len(got["comments"]) != 100 || len(got["reactions"]) != 0 || len(got["recordings"]) != 100 || len(got["notifications"]) != 30 {
		t.Fatalf("page 1 sizes: %v", r.raw)
	}
	user, _ := r.dataMap()["user"].(map[string]any)
	if user["userId"] != "u1" || user["name"] != "Name u1" || user["organization"].(map[string]any)["accessRole"] != "editor" {
		t.Fatalf("page 1 user = %v", r.dataMap()["user"])
	}
	contentReqs, notifyReqs := d.content.received(), d.notify.received()
	checkSigned(t, append(contentReqs, notifyReqs...), "ws1")
	if keys := contentCursorKeys(t, contentReqs); !slices.Equal(keys, []string{"comments", "reactions", "recordings"}) {
		t.Fatalf("page 1 asked content for %v", keys)
	}
	if len(notifyReqs) != 1 || notifyReqs[0].Body["after"] != "" {
		t.Fatalf("page 1 notify requests = %v", notifyReqs)
	}
	tok := r.result()["nextPageToken"]
	if tok == nil {
		t.Fatal("page 1: nextPageToken is null with data left")
	}
	all := got

	// Page 2: reactions and notifications are exhausted and not asked for.
	query["pageToken"] = tok
	r = d.ok("ws1", userDataGet, query)
	got = arrays(t, r)
	if len(got["comments"]) != 100 || len(got["reactions"]) != 0 || len(got["recordings"]) != 20 || len(got["notifications"]) != 0 {
		t.Fatalf("page 2 sizes: %v", got)
	}
	if keys := contentCursorKeys(t, d.content.received()); !slices.Equal(keys, []string{"comments", "recordings"}) {
		t.Fatalf("page 2 asked content for %v", keys)
	}
	if n := len(d.notify.received()); n != 0 {
		t.Fatalf("page 2 asked notify %d times after its array was exhausted", n)
	}
	for k, v := range got {
		all[k] = append(all[k], v...)
	}

	// Page 3: only comments are left; the token ends.
	query["pageToken"] = r.result()["nextPageToken"]
	r = d.ok("ws1", userDataGet, query)
	got = arrays(t, r)
	if keys := contentCursorKeys(t, d.content.received()); !slices.Equal(keys, []string{"comments"}) {
		t.Fatalf("page 3 asked content for %v", keys)
	}
	if tok, present := r.result()["nextPageToken"]; !present || tok != nil {
		t.Fatalf("page 3: nextPageToken = %v (present %v), want null", tok, present)
	}
	for k, v := range got {
		all[k] = append(all[k], v...)
	}

	// Every item exactly once, in order.
	for name, n := range map[string]int{"comments": 250, "reactions": 0, "recordings": 120, "notifications": 30} {
		want := []string{}
		for _, it := range items(name[:len(name)-1], n) {
			want = append(want, it.(map[string]any)["id"].(string))
		}
		if !slices.Equal(all[name], want) {
			t.Fatalf("%s over all pages: %d items, want %d in order", name, len(all[name]), n)
		}
	}
}

func TestUserDataEmptyArraysWhenNone(t *testing.T) {
	d := newDataEnv(t, userData{})
	r := d.ok("ws1", userDataGet, map[string]any{"organizationId": "o1", "userId": "u1"})
	for name, ids := range arrays(t, r) {
		if len(ids) != 0 {
			t.Fatalf("%s = %v, want []", name, ids)
		}
	}
	if tok, present := r.result()["nextPageToken"]; !present || tok != nil {
		t.Fatalf("nextPageToken = %v (present %v), want null", tok, present)
	}
	if user, present := r.dataMap()["user"]; !present || user != nil {
		t.Fatalf("user = %v (present %v), want null for a user identity does not know", user, present)
	}
}

func TestUserDataFailsWholeWhenADownstreamFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		fail func(d *dataEnv)
	}{
		{"content down", func(d *dataEnv) { d.content.srv.Close() }},
		{"notify down", func(d *dataEnv) { d.notify.srv.Close() }},
		{"notify internal error", func(d *dataEnv) { d.notify.failWith.Store(api.Errorf(api.Internal, "boom")) }},
		{"content refuses the signature", func(d *dataEnv) { d.content.failWith.Store(api.Errorf(api.PermissionDenied, "no")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDataEnv(t, userData{comments: 3, notifications: 3})
			tc.fail(d)
			r := d.fails("ws1", userDataGet, map[string]any{"organizationId": "o1", "userId": "u1"}, api.Unavailable)
			if r.result() != nil {
				t.Fatalf("an error carried a result: %s", r.raw)
			}
		})
	}
}

func TestUserDataPageTokenIsBoundToWorkspaceAndUser(t *testing.T) {
	d := newDataEnv(t, userData{comments: 150})
	r := d.ok("ws1", userDataGet, map[string]any{"organizationId": "o1", "userId": "u1"})
	tok := r.result()["nextPageToken"]
	if tok == nil {
		t.Fatal("no nextPageToken with 150 comments")
	}
	d.fails("ws2", userDataGet, map[string]any{"organizationId": "o1", "userId": "u1", "pageToken": tok}, api.InvalidArgument)
	d.fails("ws1", userDataGet, map[string]any{"organizationId": "o1", "userId": "u2", "pageToken": tok}, api.InvalidArgument)
	d.fails("ws1", userDataGet, map[string]any{"organizationId": "o1", "userId": "u1", "pageToken": "made-up"}, api.InvalidArgument)
	d.fails("ws1", userDataGet, map[string]any{"organizationId": "o1"}, api.InvalidArgument)
	d.ok("ws1", userDataGet, map[string]any{"organizationId": "o1", "userId": "u1", "pageToken": tok})
}

func TestUserDataUnavailableWithoutDownstreams(t *testing.T) {
	e := newEnv(t) // no Backends.UserData
	e.fails("ws1", userDataGet, map[string]any{"organizationId": "o1", "userId": "u1"}, api.Unavailable)
}
