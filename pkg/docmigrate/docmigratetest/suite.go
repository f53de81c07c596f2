// Package docmigratetest is the contract test suite of pkg/docmigrate: every
// owning service runs it against its own handler, so the services answer
// the migration protocol alike.
package docmigratetest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
)

// Owner is a running owning service.
type Owner struct {
	// Handler is the service's whole HTTP handler, internal auth included.
	Handler http.Handler
	// Secret is the internal secret the service was built with.
	Secret string
	// Seed stores data of doc in the service (through its public API),
	// enough that it must answer has-data true.
	Seed func(t *testing.T, doc docmigrate.Document)
}

// Run runs the contract against the owner newOwner builds; each subtest
// gets its own (fresh stores), so they run in parallel.
func Run(t *testing.T, newOwner func(t *testing.T) Owner) {
	t.Run("unknown document has no data", func(t *testing.T) {
		t.Parallel()
		c := connect(t, newOwner(t))
		expectHasData(t, c, doc("ws1", "o1", "nothing-here"), false)
	})
	t.Run("migrate moves the data once", func(t *testing.T) {
		t.Parallel()
		o := newOwner(t)
		c := connect(t, o)
		src, other := doc("ws1", "o1", "d1"), doc("ws1", "o2", "d1")
		o.Seed(t, src)
		o.Seed(t, other)
		expectHasData(t, c, src, true)
		move := docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9", MigrationID: "m1"}
		if moved := migrate(t, c, move); moved < 1 {
			t.Fatalf("first run moved %d records of a seeded document", moved)
		}
		expectHasData(t, c, src, false)
		expectHasData(t, c, move.Target(), true)
		expectHasData(t, c, other, true) // another organization's document of the same id stays
		if moved := migrate(t, c, move); moved != 0 {
			t.Fatalf("a re-run after completion moved %d records", moved)
		}
	})
	t.Run("workspaces are apart", func(t *testing.T) {
		t.Parallel()
		o := newOwner(t)
		c := connect(t, o)
		mine := doc("ws1", "o1", "d1")
		o.Seed(t, mine)
		expectHasData(t, c, doc("ws2", "o1", "d1"), false)
		if moved := migrate(t, c, docmigrate.Move{WorkspaceID: "ws2", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9", MigrationID: "m2"}); moved != 0 {
			t.Fatalf("a move in ws2 moved %d records of ws1", moved)
		}
		expectHasData(t, c, mine, true)
	})
	t.Run("bad requests write nothing", func(t *testing.T) {
		t.Parallel()
		o := newOwner(t)
		c := connect(t, o)
		src := doc("ws1", "o1", "d1")
		o.Seed(t, src)
		for name, m := range map[string]docmigrate.Move{
			"no new id":       {WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", MigrationID: "m1"},
			"no workspace":    {OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9", MigrationID: "m1"},
			"no migration id": {WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9"},
			"onto itself":     {WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d1", MigrationID: "m1"},
		} {
			if _, err := c.MigrateDocument(t.Context(), m); !api.IsStatus(err, api.InvalidArgument) {
				t.Errorf("%s: want INVALID_ARGUMENT, got %v", name, err)
			}
		}
		if _, err := c.DocumentHasData(t.Context(), docmigrate.Document{WorkspaceID: "ws1", OrganizationID: "o1"}); !api.IsStatus(err, api.InvalidArgument) {
			t.Errorf("has-data without documentId: want INVALID_ARGUMENT, got %v", err)
		}
		expectHasData(t, c, src, true)
	})
	t.Run("only services may call", func(t *testing.T) {
		t.Parallel()
		o := newOwner(t)
		signer := internalauth.NewSigner(o.Secret)
		body, _ := json.Marshal(map[string]any{"data": docmigrate.Move{WorkspaceID: "ws1", OrganizationID: "o1", DocumentID: "d1", NewDocumentID: "d9", MigrationID: "m1"}})
		for _, path := range []string{docmigrate.MigratePath, docmigrate.HasDataPath} {
			for name, sign := range map[string]func(http.Header){
				"unsigned":  func(http.Header) {},
				"workspace": func(h http.Header) { signer.Sign(h, internalauth.Workspace("ws1")) },
				"operator":  func(h http.Header) { signer.Sign(h, internalauth.Operator) },
			} {
				req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				sign(req.Header)
				rec := httptest.NewRecorder()
				o.Handler.ServeHTTP(rec, req)
				if rec.Code != http.StatusUnauthorized && rec.Code != http.StatusForbidden {
					t.Errorf("%s %s: HTTP %d, want 401 or 403: %s", name, path, rec.Code, rec.Body)
				}
			}
		}
	})
}

func doc(ws, org, id string) docmigrate.Document {
	return docmigrate.Document{WorkspaceID: ws, OrganizationID: org, DocumentID: id}
}

// connect serves o on loopback and returns the client its callers use.
func connect(t *testing.T, o Owner) *docmigrate.Client {
	t.Helper()
	srv := httptest.NewServer(o.Handler)
	t.Cleanup(srv.Close)
	return docmigrate.NewClient(svcclient.New("owner", srv.URL, internalauth.NewSigner(o.Secret)), "content")
}

func expectHasData(t *testing.T, c *docmigrate.Client, d docmigrate.Document, want bool) {
	t.Helper()
	got, err := c.DocumentHasData(context.WithoutCancel(t.Context()), d)
	if err != nil {
		t.Fatalf("has-data %+v: %v", d, err)
	}
	if got != want {
		t.Fatalf("has-data %+v = %v, want %v", d, got, want)
	}
}

func migrate(t *testing.T, c *docmigrate.Client, m docmigrate.Move) int64 {
	t.Helper()
	moved, err := c.MigrateDocument(t.Context(), m)
	if err != nil {
		t.Fatalf("migrate %+v: %v", m, err)
	}
	return moved
}
