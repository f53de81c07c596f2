package memory

import (
	"context"

	"github.com/opencollab/backend/svc-memory/internal/lexical"
)

// ChangeFeed tells the other replicas which judgments this one indexed or
// deleted (internal/changefeed): the lexical index is held per process,
// and each activity event reaches one replica only.
type ChangeFeed interface {
	Announce(ctx context.Context, ws string, recordIDs []string) error
}

// announce tells the other replicas about changed judgments; a failure
// leaves them stale until their next start, so it is logged, not
// returned (the judgment itself is saved and indexed here).
func (s *Service) announce(ctx context.Context, ws string, recordIDs []string) {
	if s.Changes == nil || len(recordIDs) == 0 {
		return
	}
	if err := s.Changes.Announce(ctx, ws, recordIDs); err != nil {
		s.Logger.WarnContext(ctx, "memory: announcing indexed judgments to the other replicas failed",
			"workspaceId", ws, "judgments", len(recordIDs), "error", err)
	}
}

// announceBatch announces a batch of judgments, per workspace.
func (s *Service) announceBatch(ctx context.Context, batch []Stored) {
	byWS := map[string][]string{}
	for _, j := range batch {
		byWS[j.WorkspaceID] = append(byWS[j.WorkspaceID], j.RecordID)
	}
	for ws, ids := range byWS {
		s.announce(ctx, ws, ids)
	}
}

// Refresh brings the lexical index up to date with the named judgments of
// ws as the store of record has them now: another replica indexed or
// deleted them. Reading the current state makes a late or repeated notice
// harmless.
func (s *Service) Refresh(ctx context.Context, ws string, recordIDs []string) error {
	if s.Lexical == nil {
		return nil
	}
	found, err := s.Store.FindByIDs(ctx, ws, recordIDs)
	if err != nil {
		return err
	}
	present := make(map[string]bool, len(found))
	docs := make([]lexical.Doc, len(found))
	for i, j := range found {
		present[j.RecordID] = true
		docs[i] = lexicalDoc(j)
	}
	s.Lexical.Upsert(docs...)
	for _, id := range recordIDs {
		if !present[id] {
			s.Lexical.Delete(ws, pointID(ws, id))
		}
	}
	return nil
}
