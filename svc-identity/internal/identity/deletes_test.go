package identity_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

// countingDeletes counts the batch deletes and fails the failAt-th
// DeleteDocuments call (1-based; 0 never).
type countingDeletes struct {
	identity.Store
	docCalls, orgCalls, failAt int
}

func (c *countingDeletes) DeleteDocuments(ctx context.Context, ws, orgID string, ids []string) ([]string, error) {
	c.docCalls++
	if c.docCalls == c.failAt {
		return nil, errors.New("store went away")
	}
	return c.Store.DeleteDocuments(ctx, ws, orgID, ids)
}

func (c *countingDeletes) DeleteOrganizations(ctx context.Context, ws string, ids []string) ([]string, error) {
	c.orgCalls++
	return c.Store.DeleteOrganizations(ctx, ws, ids)
}

// documents/delete deletes in chunks (not one document at a time); one
// that fails part way is completed by the same request again.
func TestDeleteDocumentsFailingPartWayIsCompletedByARetry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svc, st, _ := newService(t)
	add := identity.AddDocumentsRequest{OrganizationID: "org", CreateOrganization: true}
	var ids []string
	for i := range 600 { // three chunks
		ids = append(ids, fmt.Sprintf("d%03d", i))
		add.Documents = append(add.Documents, identity.DocumentInput{ID: ids[i]})
	}
	if _, err := svc.AddDocuments(ctx, "ws", add); err != nil {
		t.Fatal(err)
	}
	request := append(ids, "ghost")

	failing := &countingDeletes{Store: st, failAt: 2}
	if _, err := serviceOn(t, failing).DeleteDocuments(ctx, "ws", "org", request); err == nil {
		t.Fatal("DeleteDocuments succeeded with a store failing part way")
	}
	if left := countDocuments(t, st, ids); left == 0 || left == len(ids) {
		t.Fatalf("%d documents left after the failure: the failure was not part way", left)
	}

	counted := &countingDeletes{Store: st}
	out, err := serviceOn(t, counted).DeleteDocuments(ctx, "ws", "org", request)
	if err != nil {
		t.Fatal(err)
	}
	if counted.docCalls != 3 {
		t.Errorf("%d store deletes for 601 documents, want 3 (chunks)", counted.docCalls)
	}
	if out["ghost"].Success || out["d000"].Success || !out["d599"].Success {
		t.Errorf("ghost = %+v, d000 (deleted before) = %+v, d599 = %+v", out["ghost"], out["d000"], out["d599"])
	}
	if left := countDocuments(t, st, ids); left != 0 {
		t.Fatalf("%d documents left after the retry", left)
	}
}

// serviceOn is a Service on st (a test double around a store).
func serviceOn(t *testing.T, st identity.Store) *identity.Service {
	return identity.NewService(st, pagetoken.New(testenv.Redis(t), 0), nil)
}

func countDocuments(t *testing.T, st *store.Store, ids []string) int {
	t.Helper()
	docs, err := st.GetDocuments(context.Background(), "ws", "org", ids)
	if err != nil {
		t.Fatal(err)
	}
	return len(docs)
}

// organizations/delete deletes in chunks, not one organization at a time.
func TestDeleteOrganizationsGoesInChunks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, st, _ := newService(t)
	var ids []string
	for i := range 260 { // two chunks
		ids = append(ids, fmt.Sprintf("o%03d", i))
		if err := st.EnsureOrganization(ctx, "ws", ids[i], 1); err != nil {
			t.Fatal(err)
		}
	}
	counted := &countingDeletes{Store: st}
	out, err := serviceOn(t, counted).DeleteOrganizations(ctx, "ws", append(ids, "ghost"))
	if err != nil {
		t.Fatal(err)
	}
	if counted.orgCalls != 2 {
		t.Errorf("%d store deletes for 261 organizations, want 2 (chunks)", counted.orgCalls)
	}
	if out["ghost"].Success || !out["o000"].Success || !out["o259"].Success {
		t.Errorf("ghost = %+v, o000 = %+v, o259 = %+v", out["ghost"], out["o000"], out["o259"])
	}
	left, err := st.ListOrganizations(ctx, "ws", identity.OrganizationQuery{Limit: 10})
	if err != nil || len(left) > 0 {
		t.Fatalf("left %d organizations (%v)", len(left), err)
	}
}
