package locations

import (
	"context"
	"errors"
	"maps"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
)

const (
	ws        = "ws_1"
	apiKey    = "ak_1"
	authToken = "at_1"
)

// fakeLookup knows one API key of ws with two live tokens.
type fakeLookup struct{ err error }

func (f fakeLookup) LookupCredentials(_ context.Context, key string) (Credentials, error) {
	if f.err != nil {
		return Credentials{}, f.err
	}
	switch key {
	case apiKey:
		return Credentials{WorkspaceID: ws, TokenHashes: []string{internalauth.HashToken("at_other"), internalauth.HashToken(authToken)}}, nil
	case "ak_foreign":
		return Credentials{WorkspaceID: "ws_2", TokenHashes: []string{internalauth.HashToken(authToken)}}, nil
	}
	return Credentials{}, api.Errorf(api.NotFound, "unknown api key")
}

// fakeRewriter stores one location "loc-1" on document "doc" and records
// each call.
type fakeRewriter struct {
	calls []rewriteCall
}

type rewriteCall struct {
	ws, org, doc, oldID string
	newLoc              map[string]any
	merge               bool
}

func (f *fakeRewriter) RewriteLocation(_ context.Context, ws, org, doc, oldID string, newLoc map[string]any, merge bool) (int64, error) {
	f.calls = append(f.calls, rewriteCall{ws, org, doc, oldID, newLoc, merge})
	if doc == "doc" && oldID == "loc-1" {
		return 2, nil
	}
	return 0, nil
}

func validUpdate() Update {
	return Update{
		WorkspaceID: ws, APIKey: apiKey, AuthToken: authToken, OrganizationID: "org", DocumentID: "doc",
		OldLocation: map[string]any{"id": "loc-1"}, NewLocation: map[string]any{"id": "loc-2", "locationName": "Two"},
	}
}

func TestUpdate(t *testing.T) {
	tests := []struct {
		name       string
		change     func(*Update)
		lookupErr  error
		wantStatus api.Status // "" for success
		wantCall   bool
	}{
		{"replace", func(*Update) {}, nil, "", true},
		{"merge", func(u *Update) { u.Merge = true }, nil, "", true},
		{"without organization", func(u *Update) { u.OrganizationID = "" }, nil, "", true},
		{"unknown api key", func(u *Update) { u.APIKey = "ak_nope" }, nil, api.PermissionDenied, false},
		{"api key of another workspace", func(u *Update) { u.APIKey = "ak_foreign" }, nil, api.PermissionDenied, false},
		{"wrong auth token", func(u *Update) { u.AuthToken = "at_nope" }, nil, api.PermissionDenied, false},
		{"empty auth token", func(u *Update) { u.AuthToken = "" }, nil, api.PermissionDenied, false},
		{"workspace unreachable", func(*Update) {}, api.Errorf(api.Unavailable, "down"), api.Unavailable, false},
		{"unknown old location", func(u *Update) { u.OldLocation = map[string]any{"id": "loc-9"} }, nil, api.NotFound, true},
		{"old location of another document", func(u *Update) { u.DocumentID = "doc-2" }, nil, api.NotFound, true},
		{"old location without id", func(u *Update) { u.OldLocation = map[string]any{"locationName": "x"} }, nil, api.InvalidArgument, false},
		{"old location with blank id", func(u *Update) { u.OldLocation = map[string]any{"id": " "} }, nil, api.InvalidArgument, false},
		{"old location with object id", func(u *Update) { u.OldLocation = map[string]any{"id": map[string]any{}} }, nil, api.InvalidArgument, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rw := &fakeRewriter{}
			svc := NewService(fakeLookup{err: tt.lookupErr}, rw)
			u := validUpdate()
			tt.change(&u)
			err := svc.Update(context.Background(), u)
			if tt.wantStatus == "" {
				if err != nil {
					t.Fatalf("Update: %v", err)
				}
			} else if !api.IsStatus(err, tt.wantStatus) {
				t.Fatalf("Update error = %v, want %s", err, tt.wantStatus)
			}
			if got := len(rw.calls) == 1; got != tt.wantCall {
				t.Fatalf("rewriter called %d times, want call=%v", len(rw.calls), tt.wantCall)
			}
			if tt.wantCall {
				c := rw.calls[0]
				if c.ws != ws || c.org != u.OrganizationID || c.doc != u.DocumentID || c.merge != u.Merge || !maps.Equal(c.newLoc, u.NewLocation) {
					t.Fatalf("rewriter got %+v for %+v", c, u)
				}
			}
		})
	}
}

func TestUpdateNumericLocationID(t *testing.T) {
	rw := &fakeRewriter{}
	u := validUpdate()
	u.OldLocation = map[string]any{"id": float64(17)}
	err := NewService(fakeLookup{}, rw).Update(context.Background(), u)
	if !api.IsStatus(err, api.NotFound) || len(rw.calls) != 1 || rw.calls[0].oldID != "17" {
		t.Fatalf("err %v, calls %+v: want the id passed as \"17\"", err, rw.calls)
	}
}

func TestRewriterErrorPassesThrough(t *testing.T) {
	boom := errors.New("boom")
	svc := NewService(fakeLookup{}, failingRewriter{boom})
	if err := svc.Update(context.Background(), validUpdate()); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
}

type failingRewriter struct{ err error }

func (f failingRewriter) RewriteLocation(context.Context, string, string, string, string, map[string]any, bool) (int64, error) {
	return 0, f.err
}

func TestNoLocationsIsNotFound(t *testing.T) {
	err := NewService(fakeLookup{}, NoLocations{}).Update(context.Background(), validUpdate())
	if !api.IsStatus(err, api.NotFound) {
		t.Fatalf("err = %v, want NOT_FOUND", err)
	}
}

func TestTokenMatches(t *testing.T) {
	hashes := []string{internalauth.HashToken("a"), internalauth.HashToken("b")}
	for token, want := range map[string]bool{"a": true, "b": true, "c": false, "": false} {
		if got := tokenMatches(token, hashes); got != want {
			t.Errorf("tokenMatches(%q) = %v, want %v", token, got, want)
		}
	}
	if tokenMatches("a", nil) {
		t.Error("a token matched an empty hash list")
	}
}
