package svcworkspace_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/internalauth"
)

type endpointReply struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	Description *string  `json:"description"`
	FilterTypes []string `json:"filterTypes"`
	Channels    []string `json:"channels"`
	Disabled    bool     `json:"disabled"`
	RateLimit   *int     `json:"rateLimit"`
	UID         *string  `json:"uid"`
	CreatedAt   string   `json:"createdAt"`
	UpdatedAt   string   `json:"updatedAt"`
}

type pageReply struct {
	Endpoints    []endpointReply `json:"endpoints"`
	Iterator     *string         `json:"iterator"`
	PrevIterator *string         `json:"prevIterator"`
	Done         bool            `json:"done"`
}

var endpointIDFormat = regexp.MustCompile(`^ep_[A-Z2-7]{26}$`)

// hookEnv is a keyed env with one workspace whose advanced webhooks are on.
func hookEnv(t *testing.T) (*env, string) {
	t.Helper()
	e, ws := newKeyedEnv(t)
	e.enableHooks(ws)
	return e, ws
}

func (e *env) createEndpoint(ws string, data map[string]any) endpointReply {
	e.T.Helper()
	var ep endpointReply
	e.OK(ws, endpointsCreate, data, &ep)
	if !endpointIDFormat.MatchString(ep.ID) {
		e.T.Fatalf("endpoint id %q", ep.ID)
	}
	return ep
}

func TestEndpointCRUD(t *testing.T) {
	t.Parallel()
	e, ws := hookEnv(t)

	// Unset fields are explicit nulls.
	code, r := e.Call(ws, endpointsCreate, map[string]any{"url": "https://hooks.example.com/minimal"})
	if code != http.StatusOK {
		t.Fatalf("create: HTTP %d %s", code, r.Error.Message)
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(r.Result.Data, &fields)
	for _, k := range []string{"description", "filterTypes", "channels", "rateLimit", "uid"} {
		if string(fields[k]) != "null" {
			t.Fatalf("minimal endpoint: %s = %s, want null", k, fields[k])
		}
	}
	for _, k := range []string{"metadata", "secret"} {
		if _, ok := fields[k]; ok {
			t.Fatalf("endpoint shows %s", k)
		}
	}

	ep := e.createEndpoint(ws, map[string]any{
		"url": "https://hooks.example.com/full", "description": "all fields", "uid": "crm-1",
		"filterTypes": []string{"comment.add", "activity.add", "comment.add"}, "channels": []string{"project-1"},
		"disabled": true, "rateLimit": 5, "metadata": map[string]any{"team": "core"},
	})
	if ep.URL != "https://hooks.example.com/full" || *ep.Description != "all fields" || *ep.UID != "crm-1" ||
		!slices.Equal(ep.FilterTypes, []string{"comment.add", "activity.add"}) || !slices.Equal(ep.Channels, []string{"project-1"}) ||
		!ep.Disabled || *ep.RateLimit != 5 {
		t.Fatalf("created %+v", ep)
	}
	created, err := time.Parse(time.RFC3339, ep.CreatedAt)
	if err != nil || ep.UpdatedAt != ep.CreatedAt || time.Since(created) > time.Minute {
		t.Fatalf("timestamps %q %q: %v", ep.CreatedAt, ep.UpdatedAt, err)
	}

	// A partial update changes only what was sent; null clears.
	var up endpointReply
	e.OK(ws, endpointsUpdate, map[string]any{"endpointId": ep.ID, "disabled": false, "description": nil, "rateLimit": 50}, &up)
	want := ep
	want.Disabled, want.Description, want.RateLimit, want.UpdatedAt = false, nil, up.RateLimit, up.UpdatedAt
	if up.RateLimit == nil || *up.RateLimit != 50 || !sameEndpoint(up, want) || up.UpdatedAt < ep.UpdatedAt {
		t.Fatalf("update returned %+v, want %+v", up, want)
	}
	e.OK(ws, endpointsUpdate, map[string]any{"endpointId": ep.ID, "filterTypes": nil, "url": "http://hooks.example.com:8080/moved"}, &up)
	if up.FilterTypes != nil || up.URL != "http://hooks.example.com:8080/moved" || !slices.Equal(up.Channels, ep.Channels) {
		t.Fatalf("second update %+v", up)
	}
	// Listed by (createdAt, id): two endpoints made in one millisecond come
	// in id order, so the updated one is found by its id.
	if page := e.list(ws, nil); len(page.Endpoints) != 2 || !slices.ContainsFunc(page.Endpoints, func(l endpointReply) bool { return sameEndpoint(l, up) }) {
		t.Fatalf("list after update: %+v", page)
	}

	for _, bad := range []map[string]any{
		{"endpointId": ep.ID},
		{"endpointId": ep.ID, "uid": "other"},
		{"endpointId": ep.ID, "url": nil},
		{"endpointId": ep.ID, "filterTypes": []string{}},
		{"endpointId": ep.ID, "filterTypes": slices.Repeat([]string{"comment.add"}, 101)}, // above workspace.filterTypes
	} {
		e.Fails(ws, endpointsUpdate, bad, http.StatusBadRequest, "INVALID_ARGUMENT")
	}

	var del struct {
		EndpointID string `json:"endpointId"`
		Deleted    bool   `json:"deleted"`
	}
	e.OK(ws, endpointsDelete, map[string]any{"endpointId": ep.ID}, &del)
	if del.EndpointID != ep.ID || !del.Deleted {
		t.Fatalf("delete returned %+v", del)
	}
	for _, op := range []struct {
		path string
		data map[string]any
	}{
		{endpointsDelete, map[string]any{"endpointId": ep.ID}},
		{endpointsUpdate, map[string]any{"endpointId": ep.ID, "description": "again"}},
		{secretGet, map[string]any{"endpointId": ep.ID}},
		{secretRotate, map[string]any{"endpointId": ep.ID}},
	} {
		e.Fails(ws, op.path, op.data, http.StatusNotFound, "NOT_FOUND")
	}
	if page := e.list(ws, nil); len(page.Endpoints) != 1 || page.Endpoints[0].ID == ep.ID {
		t.Fatalf("list after delete: %+v", page)
	}
	// The uid of a deleted endpoint is free again.
	e.createEndpoint(ws, map[string]any{"url": "https://hooks.example.com/again", "uid": "crm-1"})
}

func sameEndpoint(a, b endpointReply) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestEndpointCreateInvalid(t *testing.T) {
	t.Parallel()
	e, ws := hookEnv(t)
	e.createEndpoint(ws, map[string]any{"url": "https://hooks.example.com/a", "uid": "taken"})
	url := "https://hooks.example.com/in"
	tests := []struct {
		name   string
		data   map[string]any
		status string
		field  string
	}{
		{"no url", map[string]any{}, "INVALID_ARGUMENT", "url"},
		{"ftp url", map[string]any{"url": "ftp://hooks.example.com/in"}, "INVALID_ARGUMENT", "url"},
		{"relative url", map[string]any{"url": "/in"}, "INVALID_ARGUMENT", "url"},
		{"url without host", map[string]any{"url": "https:///in"}, "INVALID_ARGUMENT", "url"},
		{"empty filterTypes", map[string]any{"url": url, "filterTypes": []string{}}, "INVALID_ARGUMENT", "filterTypes"},
		{"unknown event type", map[string]any{"url": url, "filterTypes": []string{"comment.teleport"}}, "INVALID_ARGUMENT", "filterTypes"},
		{"empty channels", map[string]any{"url": url, "channels": []string{}}, "INVALID_ARGUMENT", "channels"},
		{"rateLimit zero", map[string]any{"url": url, "rateLimit": 0}, "INVALID_ARGUMENT", "rateLimit"},
		{"rateLimit fraction", map[string]any{"url": url, "rateLimit": 1.5}, "INVALID_ARGUMENT", "rateLimit"},
		{"metadata not strings", map[string]any{"url": url, "metadata": map[string]any{"n": 1}}, "INVALID_ARGUMENT", "metadata"},
		{"dotted metadata key", map[string]any{"url": url, "metadata": map[string]any{"a.b": "c"}}, "INVALID_ARGUMENT", "metadata"},
		{"caller's secret", map[string]any{"url": url, "secret": "whsec_bWluZQ=="}, "INVALID_ARGUMENT", "secret"},
		{"bad uid", map[string]any{"url": url, "uid": "no spaces"}, "INVALID_ARGUMENT", "uid"},
		{"uid taken", map[string]any{"url": url, "uid": "taken"}, "ALREADY_EXISTS", "uid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := http.StatusBadRequest
			if tt.status == "ALREADY_EXISTS" {
				code = http.StatusConflict
			}
			r := e.Fails(ws, endpointsCreate, tt.data, code, tt.status)
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
	if n, _ := e.DB.Collection("webhook_endpoints").CountDocuments(context.Background(), bson.M{}); n != 1 {
		t.Fatalf("refused creates stored endpoints: %d records", n)
	}
}

func (e *env) list(ws string, data map[string]any) pageReply {
	e.T.Helper()
	var p pageReply
	e.OK(ws, endpointsGet, data, &p)
	return p
}

func ids(eps []endpointReply) []string {
	out := make([]string, len(eps))
	for i, ep := range eps {
		out[i] = ep.ID
	}
	return out
}

func TestEndpointListPages(t *testing.T) {
	t.Parallel()
	e, ws := hookEnv(t)
	var created []string
	for i := range 5 {
		created = append(created, e.createEndpoint(ws, map[string]any{"url": "https://hooks.example.com/" + string(rune('a'+i))}).ID)
	}
	// The order is (createdAt, id): endpoints made in one millisecond come in
	// id order, not in the order they were made. The pages below must cut
	// the one-page list without gaps or repeats.
	p := e.list(ws, nil)
	all := ids(p.Endpoints)
	if !slices.Equal(slices.Sorted(slices.Values(all)), slices.Sorted(slices.Values(created))) || !p.Done || p.Iterator != nil || p.PrevIterator != nil {
		t.Fatalf("one page: %+v", p)
	}
	for i := 1; i < len(p.Endpoints); i++ {
		a, b := p.Endpoints[i-1], p.Endpoints[i]
		if a.CreatedAt > b.CreatedAt || (a.CreatedAt == b.CreatedAt && a.ID > b.ID) {
			t.Fatalf("one page out of (createdAt, id) order: %+v", p.Endpoints)
		}
	}

	var pages []pageReply
	data := map[string]any{"limit": 2}
	for {
		p := e.list(ws, data)
		pages = append(pages, p)
		if p.Done {
			break
		}
		if p.Iterator == nil || len(pages) > 5 {
			t.Fatalf("page %d: not done but no iterator: %+v", len(pages), p)
		}
		data = map[string]any{"limit": 2, "iterator": *p.Iterator}
	}
	if len(pages) != 3 || !slices.Equal(ids(pages[0].Endpoints), all[:2]) || !slices.Equal(ids(pages[1].Endpoints), all[2:4]) ||
		!slices.Equal(ids(pages[2].Endpoints), all[4:]) || pages[2].Iterator != nil {
		t.Fatalf("pages: %+v", pages)
	}
	if pages[0].PrevIterator != nil || pages[1].PrevIterator == nil || pages[2].PrevIterator == nil {
		t.Fatal("prevIterator: want null on the first page only")
	}
	back := e.list(ws, map[string]any{"limit": 2, "iterator": *pages[2].PrevIterator})
	if !slices.Equal(ids(back.Endpoints), all[2:4]) || back.Done || back.PrevIterator == nil {
		t.Fatalf("back from the last page: %+v", back)
	}

	other := internalauth.Workspace(e.createWorkspace(nil).WorkspaceID)
	e.enableHooks(other)
	if p := e.list(other, nil); len(p.Endpoints) != 0 || !p.Done {
		t.Fatalf("another workspace sees %+v", p)
	}
	for name, data := range map[string]map[string]any{
		"limit 0":                  {"limit": 0},
		"limit 251":                {"limit": 251},
		"unknown iterator":         {"iterator": "nope"},
		"other workspace iterator": {"iterator": *pages[0].Iterator},
	} {
		principal := ws
		if name == "other workspace iterator" {
			principal = other
		}
		if code, r := e.Call(principal, endpointsGet, data); code != http.StatusBadRequest || r.Error.Status != "INVALID_ARGUMENT" {
			t.Fatalf("%s: HTTP %d %s", name, code, r.Error.Status)
		}
	}
}

var secretFormat = regexp.MustCompile(`^whsec_[A-Za-z0-9+/]{43}=$`)

func TestEndpointSecret(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, ws := hookEnv(t)
	var bodies []string // every reply but secret/get's
	call := func(path string, data map[string]any, out any) {
		t.Helper()
		code, r := e.Call(ws, path, data)
		if code != http.StatusOK {
			t.Fatalf("%s: HTTP %d %s", path, code, r.Error.Message)
		}
		bodies = append(bodies, string(r.Result.Data))
		if out != nil {
			_ = json.Unmarshal(r.Result.Data, out)
		}
	}
	var ep endpointReply
	call(endpointsCreate, map[string]any{"url": "https://hooks.example.com/s", "metadata": map[string]any{"k": "v"}}, &ep)
	secret := e.secret(ws, ep.ID)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if !secretFormat.MatchString(secret) || err != nil || len(raw) != 32 {
		t.Fatalf("secret %q: want whsec_ and the base64 of 32 bytes", secret)
	}
	if again := e.secret(ws, ep.ID); again != secret {
		t.Fatal("secret/get is not stable")
	}

	call(endpointsGet, map[string]any{}, nil)
	call(endpointsUpdate, map[string]any{"endpointId": ep.ID, "description": "d"}, nil)
	var rotated struct {
		EndpointID string `json:"endpointId"`
	}
	call(secretRotate, map[string]any{"endpointId": ep.ID}, &rotated)
	if rotated.EndpointID != ep.ID || len(bodies[len(bodies)-1]) > 60 {
		t.Fatalf("rotate returned %s", bodies[len(bodies)-1])
	}
	next := e.secret(ws, ep.ID)
	if next == secret || !secretFormat.MatchString(next) {
		t.Fatalf("after rotation: %q (before %q)", next, secret)
	}
	call(hookConfigGet, map[string]any{}, nil)
	call(endpointsGet, map[string]any{"limit": 1}, nil)

	var doc bson.M
	if err := e.DB.Collection("webhook_endpoints").FindOne(ctx, bson.M{"_id": ep.ID}).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	bodies = append(bodies, rawString(t, doc)) // the stored record too
	for _, s := range []string{secret, next} {
		key := strings.TrimPrefix(s, "whsec_")
		for _, b := range bodies {
			if strings.Contains(b, key) || strings.Contains(b, strings.TrimRight(key, "=")) {
				t.Fatalf("secret appears in %s", b)
			}
		}
	}

	// Another workspace cannot reach the endpoint at all.
	other := internalauth.Workspace(e.createWorkspace(nil).WorkspaceID)
	e.enableHooks(other)
	for _, op := range []struct {
		path string
		data map[string]any
	}{
		{secretGet, map[string]any{"endpointId": ep.ID}},
		{secretRotate, map[string]any{"endpointId": ep.ID}},
		{endpointsUpdate, map[string]any{"endpointId": ep.ID, "disabled": true}},
		{endpointsDelete, map[string]any{"endpointId": ep.ID}},
	} {
		e.Fails(other, op.path, op.data, http.StatusNotFound, "NOT_FOUND")
	}
	if e.secret(ws, ep.ID) != next {
		t.Fatal("another workspace changed the secret")
	}
	e.Fails(ws, secretGet, map[string]any{}, http.StatusBadRequest, "INVALID_ARGUMENT")
}

func (e *env) secret(ws, endpointID string) string {
	e.T.Helper()
	var r struct {
		EndpointID string `json:"endpointId"`
		Secret     string `json:"secret"`
	}
	e.OK(ws, secretGet, map[string]any{"endpointId": endpointID}, &r)
	if r.EndpointID != endpointID {
		e.T.Fatalf("secret/get returned endpointId %q", r.EndpointID)
	}
	return r.Secret
}
