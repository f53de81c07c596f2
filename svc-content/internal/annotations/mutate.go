package annotations

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

// Scope names the document an operation acts in. An empty OrganizationID
// matches any organization (annotations delete allows omitting it).
type Scope struct {
	WorkspaceID    string
	OrganizationID string
	DocumentID     string
}

// query selects the annotations of the scope.
func (sc Scope) query() Query {
	return Query{WorkspaceID: sc.WorkspaceID, OrganizationID: sc.OrganizationID, DocumentIDs: []string{sc.DocumentID}}
}

func (sc Scope) holds(a *Annotation) bool {
	return a.WorkspaceID == sc.WorkspaceID && a.DocumentID == sc.DocumentID &&
		(sc.OrganizationID == "" || a.OrganizationID == sc.OrganizationID)
}

// errNotFound is the error of an annotation missing from the scope.
func errNotFound(id string) error {
	return api.Errorf(api.NotFound, "annotation %s does not exist in this document", id)
}

// errUnchanged tells mutate that the change had nothing to do.
var errUnchanged = errors.New("annotation unchanged")

// maxAttempts bounds the optimistic retries of one write. Each round lets at
// least one writer through, so this covers far more concurrent writers of
// one annotation than a real thread sees.
const maxAttempts = 64

// load reads annotation id of the scope (NOT_FOUND when absent).
func (s *Service) load(ctx context.Context, sc Scope, id string) (*Annotation, error) {
	a, err := s.annotations.Load(ctx, sc.WorkspaceID, id)
	if errors.Is(err, ErrNoAnnotation) || (err == nil && !sc.holds(a)) {
		return nil, errNotFound(id)
	}
	return a, err
}

// mutate applies change to annotation id and replaces it on the version it
// read, retrying on a fresh copy when another writer came first. change must
// depend only on the annotation it gets (it may run several times); it
// returns errUnchanged when there is nothing to write. The written
// annotation is returned; on errUnchanged, the current one and errUnchanged.
func (s *Service) mutate(ctx context.Context, sc Scope, id string, change func(a *Annotation) error) (*Annotation, error) {
	for attempt := range maxAttempts {
		a, written, err := s.tryMutate(ctx, sc, id, change)
		if err != nil || written {
			return a, err
		}
		if err := pause(ctx, attempt); err != nil {
			return nil, err
		}
	}
	return nil, api.Errorf(api.Unavailable, "annotation %s is being changed by many writers at once; retry", id)
}

// tryMutate is one read-change-replace round; written is false when another
// writer changed the annotation after it was read.
func (s *Service) tryMutate(ctx context.Context, sc Scope, id string, change func(a *Annotation) error) (a *Annotation, written bool, err error) {
	defer s.locks.Lock(sc.WorkspaceID + "\x00" + id)()
	if a, err = s.load(ctx, sc, id); err != nil {
		return nil, false, err
	}
	read, indexed := a.Version, a.IndexedRows
	if err := change(a); err != nil {
		return a, false, err
	}
	a.Version = read + 1
	a.derive()
	// Rows the change adds go into the feed before the write records them,
	// rows it drops leave after; inside the lock, so this process keeps one
	// annotation's feed in version order.
	a.IndexedRows = feedRows(a)
	if err := s.feedAdd(ctx, a, without(a.IndexedRows, indexed)); err != nil {
		return nil, false, err
	}
	if err := s.annotations.Replace(ctx, a, read); errors.Is(err, ErrVersionMoved) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, err
	}
	s.feedRemove(ctx, a, without(indexed, a.IndexedRows))
	return a, true, nil
}

// pause waits a short random time that grows with the attempt, so writers
// that collided spread out.
func pause(ctx context.Context, attempt int) error {
	ceiling := time.Duration(min(1<<min(attempt, 6), 50)) * time.Millisecond
	t := time.NewTimer(time.Duration(rand.Int64N(int64(ceiling)) + 1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
