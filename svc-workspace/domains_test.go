package svcworkspace_test

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

const (
	domainsAdd    = "/v2/workspace/domains/add"
	domainsDelete = "/v2/workspace/domains/delete"
)

type domainsReply struct {
	Added   []string `json:"domainsAdded"`
	Removed []string `json:"domainsRemoved"`
	Skipped []string `json:"skippedDomains"`
}

func (e *env) allowedDomains(ws string) []string {
	e.T.Helper()
	var r features.SettingsResponse
	e.OK(gateway, features.SettingsPath, map[string]any{"workspaceId": ws}, &r)
	return r.AllowedDomains
}

// TestDomainsAddAndDelete: entries are stored normalized as the hosted
// product answers them, repeats are skipped and reported, the settings
// lookup of the other services carries the list, and workspaces are apart.
func TestDomainsAddAndDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	id := e.createWorkspace(nil).WorkspaceID
	ws, other := internalauth.Workspace(id), e.createWorkspace(nil).WorkspaceID

	var r domainsReply
	code, raw := e.Call(ws, domainsAdd, map[string]any{"domains": []string{"https://www.google.com", "https://*.firebase.com"}})
	if code != http.StatusOK || raw.Result.Message != "Domain(s) added successfully to allowed domains." || string(raw.Result.Data) != `{"domainsAdded":["google.com","*.firebase.com"]}` {
		t.Fatalf("add: %d %s %s", code, raw.Result.Message, raw.Result.Data)
	}
	e.OK(ws, domainsAdd, map[string]any{"domains": []string{"google.com", "http://localhost:3000"}}, &r)
	if !slices.Equal(r.Added, []string{"localhost:3000"}) || !slices.Equal(r.Skipped, []string{"google.com"}) {
		t.Fatalf("add with a repeat: %+v", r)
	}
	if got := e.allowedDomains(id); !slices.Equal(got, []string{"google.com", "*.firebase.com", "localhost:3000"}) {
		t.Fatalf("settings carry %v", got)
	}
	if got := e.allowedDomains(other); len(got) != 0 {
		t.Fatalf("another workspace has %v", got)
	}

	r = domainsReply{}
	e.OK(ws, domainsDelete, map[string]any{"domains": []string{"https://www.google.com", "velt.dev"}}, &r)
	if !slices.Equal(r.Removed, []string{"google.com"}) || !slices.Equal(r.Skipped, []string{"velt.dev"}) {
		t.Fatalf("delete: %+v", r)
	}
	e.OK(ws, domainsDelete, map[string]any{"domains": []string{"*.firebase.com", "localhost:3000"}}, nil)
	if got := e.allowedDomains(id); len(got) != 0 {
		t.Fatalf("after deleting all: %v", got)
	}
}

// TestDomainsRefusals: malformed entries, empty or too long arrays and a
// list past its maximum are INVALID_ARGUMENT with nothing written.
func TestDomainsRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	id := e.createWorkspace(nil).WorkspaceID
	ws := internalauth.Workspace(id)
	for _, body := range []map[string]any{
		{"domains": []string{"ok.example", "https://example.com/path"}},
		{"domains": []string{"ftp://example.com"}},
		{"domains": []string{}},
		{},
		{"domains": make([]string, 101)},
	} {
		e.Fails(ws, domainsAdd, body, http.StatusBadRequest, "INVALID_ARGUMENT")
	}
	if got := e.allowedDomains(id); len(got) != 0 {
		t.Fatalf("a refused request wrote %v", got)
	}
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf("d%d.example", i)
	}
	e.OK(ws, domainsAdd, map[string]any{"domains": many}, nil)
	r := e.Fails(ws, domainsAdd, map[string]any{"domains": []string{"one-more.example"}}, http.StatusBadRequest, "INVALID_ARGUMENT")
	if r.Error.Message != "field domains: the workspace would have 101 allowed domains; at most 100 (delete some first)" {
		t.Fatalf("over the maximum: %s", r.Error.Message)
	}
}

// TestDomainsConcurrentAddsLoseNothing: adds racing on one workspace all
// land (compare-and-swap on the list's version).
func TestDomainsConcurrentAddsLoseNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	id := e.createWorkspace(nil).WorkspaceID
	ws := internalauth.Workspace(id)
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			code, r := e.Call(ws, domainsAdd, map[string]any{"domains": []string{fmt.Sprintf("c%d.example", i)}})
			if code != http.StatusOK {
				t.Errorf("add %d: %d %s", i, code, r.Error.Message)
			}
		})
	}
	wg.Wait()
	if got := e.allowedDomains(id); len(got) != 6 {
		t.Fatalf("after 6 concurrent adds: %v", got)
	}
}
