package identity_test

import (
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-identity/internal/identity"
	"github.com/opencollab/backend/svc-identity/internal/store"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// clock is a settable time source.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// newService returns a Service on a fresh database and Redis, with its
// store (for looking behind the operations) and its clock.
func newService(t *testing.T) (*identity.Service, *store.Store, *clock) {
	t.Helper()
	st := store.New(testenv.Mongo(t))
	if err := st.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	c := &clock{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	return identity.NewService(st, pagetoken.New(testenv.Redis(t), 0), c.now), st, c
}
