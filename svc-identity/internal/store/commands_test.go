package store_test

import (
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

// newRecordedStore returns a Store on a fresh database whose commands the
// returned counter keeps (testenv.Sent tells its scans from its writes by
// _id: FerretDB v1, the embedded store, reads its whole collection for
// each scan, so a batch must send a bounded number of them, not a few per
// item).
func newRecordedStore(t *testing.T) (*store.Store, *testenv.CommandCounter) {
	t.Helper()
	db, counter := testenv.CountingMongo(t)
	s := store.New(db)
	if err := s.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	return s, counter
}
