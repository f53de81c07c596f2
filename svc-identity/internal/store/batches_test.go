package store_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

// batchSize is more items than FerretDB v1's connection pool (100), which
// an update command of as many updateOne statements would hang on.
const batchSize = 150

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%03d", prefix, i)
	}
	return out
}

// seedDocuments adds the documents to organization o1 of ws, each with a
// membership.
func seedDocuments(t *testing.T, s *store.Store, ws string, ids []string) {
	t.Helper()
	ms := make([]identity.Membership, len(ids))
	for i, id := range ids {
		if err := s.EnsureDocument(t.Context(), ws, identity.Document{OrganizationID: "o1", ID: id, AccessType: identity.DocumentDefault}); err != nil {
			t.Fatal(err)
		}
		ms[i] = docMember(id, "u1")
	}
	if err := s.SaveMemberships(t.Context(), ws, ms); err != nil {
		t.Fatal(err)
	}
}

// storeWithDocuments is a recorded store with batchSize documents in ws1.
func storeWithDocuments(t *testing.T) (*store.Store, *testenv.CommandCounter, []string) {
	t.Helper()
	s, log := newRecordedStore(t)
	ids := numbered("d", batchSize)
	seedDocuments(t, s, "ws1", ids)
	return s, log, ids
}

func TestDeleteDocumentsScansABoundedNumberOfTimes(t *testing.T) {
	t.Parallel()
	s, log, ids := storeWithDocuments(t)
	ctx := t.Context()
	seedDocuments(t, s, "ws2", ids[:1])
	var found []string
	var err error
	sent := log.Record(func() { found, err = s.DeleteDocuments(ctx, "ws1", "o1", append([]string{"missing"}, ids...)) })
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	if !slices.Equal(found, ids) {
		t.Fatalf("found %d documents, want the %d that existed", len(found), len(ids))
	}
	// One read of the documents, one delete of their memberships, one
	// command deleting the records by _id.
	if len(sent.Names()) != 3 || len(sent.Scans()) != 2 || sent.ByIDWrites() != batchSize {
		t.Fatalf("sent %v, scans %v, %d writes by _id; want 3 commands, 2 scans, %d by _id", sent.Names(), sent.Scans(), sent.ByIDWrites(), batchSize)
	}
	left, err := s.GetDocuments(ctx, "ws1", "o1", ids)
	if err != nil || len(left) > 0 {
		t.Fatalf("left %d documents (%v)", len(left), err)
	}
	if members, _ := s.MembersAt(ctx, "ws1", docMember(ids[0], "").MembershipKey, []string{"u1"}); len(members) > 0 {
		t.Fatalf("memberships of a deleted document survived: %v", members)
	}
	if d, err := s.GetDocument(ctx, "ws2", "o1", ids[0]); err != nil || d.ID != ids[0] {
		t.Fatalf("the same id in another workspace: %+v, %v", d, err)
	}
	again, err := s.DeleteDocuments(ctx, "ws1", "o1", ids)
	if err != nil || len(again) > 0 {
		t.Fatalf("deleting again = %v, %v; want nothing found", again, err)
	}
}

func TestDeleteOrganizationsScansEachCollectionOnce(t *testing.T) {
	t.Parallel()
	s, log := newRecordedStore(t)
	ctx := t.Context()
	orgs := append(numbered("o", batchSize-1), "o1") // o1 holds a document
	for _, org := range orgs {
		if err := s.EnsureOrganization(ctx, "ws1", org, 1); err != nil {
			t.Fatal(err)
		}
	}
	seedDocuments(t, s, "ws1", []string{"d1"})
	var found []string
	var err error
	sent := log.Record(func() { found, err = s.DeleteOrganizations(ctx, "ws1", append(orgs, "missing")) })
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	slices.Sort(orgs)
	if !slices.Equal(found, orgs) {
		t.Fatalf("found %v, want %v", found, orgs)
	}
	// One read of the organizations, one delete in each of the five
	// collections of what they hold, one command deleting the records by _id.
	if len(sent.Names()) != 7 || len(sent.Scans()) != 6 || sent.ByIDWrites() != batchSize {
		t.Fatalf("sent %v, scans %v, %d writes by _id; want 7 commands, 6 scans, %d by _id", sent.Names(), sent.Scans(), sent.ByIDWrites(), batchSize)
	}
	if _, err := s.GetDocument(ctx, "ws1", "o1", "d1"); err != identity.ErrNotFound {
		t.Fatalf("a document of a deleted organization: %v", err)
	}
	left, err := s.ListOrganizations(ctx, "ws1", identity.OrganizationQuery{Limit: 10})
	if err != nil || len(left) > 0 {
		t.Fatalf("left %d organizations (%v)", len(left), err)
	}
}

func TestUpdateDocumentsWritesByIDInOneCommand(t *testing.T) {
	t.Parallel()
	s, log, ids := storeWithDocuments(t)
	ctx := t.Context()
	ins := make([]identity.DocumentInput, len(ids))
	for i, id := range ids {
		name := "Renamed " + id // a distinct change each
		ins[i] = identity.DocumentInput{ID: id, Name: &name}
	}
	var missing []string
	var err error
	sent := log.Record(func() {
		missing, err = s.UpdateDocuments(ctx, "ws1", "o1", append(ins, identity.DocumentInput{ID: "missing"}), 5)
	})
	if err != nil || !slices.Equal(missing, []string{"missing"}) {
		t.Fatalf("UpdateDocuments = %v, %v; want [missing]", missing, err)
	}
	if len(sent.Names()) != 2 || len(sent.Scans()) != 1 || sent.ByIDWrites() != batchSize {
		t.Fatalf("sent %v, scans %v, %d writes by _id; want a read and one update command of %d statements", sent.Names(), sent.Scans(), sent.ByIDWrites(), batchSize)
	}
	got, err := s.GetDocuments(ctx, "ws1", "o1", ids)
	if err != nil || len(got) != len(ids) {
		t.Fatalf("read back %d documents (%v)", len(got), err)
	}
	for _, d := range got {
		if d.Name != "Renamed "+d.ID || d.LastUpdated != 5 {
			t.Fatalf("document %s = %+v", d.ID, d)
		}
	}
	retry := log.Record(func() { _, err = s.UpdateDocuments(ctx, "ws1", "o1", ins, 6) })
	if err != nil || len(retry.Names()) != 1 {
		t.Fatalf("the same update again sent %v (%v); want the read only", retry.Names(), err)
	}
}
