package memory

import (
	"context"
	"strings"

	"github.com/opencollab/backend/svc-memory/internal/lexical"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// sweepBatch is how many unindexed judgments one sweep round embeds.
const sweepBatch = 256

// pointID is a judgment's vector id: the indexes are shared by all
// workspaces, record ids are unique only within one.
func pointID(ws, recordID string) string { return ws + "/" + recordID }

// recordIDOf inverts pointID for a hit of workspace ws.
func recordIDOf(ws, id string) (string, bool) {
	return strings.CutPrefix(id, ws+"/")
}

// index embeds the judgments into every vector space (the serving one,
// and the one a model change is building), adds them to the lexical
// index, then marks them indexed.
func (s *Service) index(ctx context.Context, batch []Stored) error {
	if len(batch) == 0 {
		return nil
	}
	if s.Lexical != nil {
		docs := make([]lexical.Doc, len(batch))
		for i, j := range batch {
			docs[i] = lexicalDoc(j)
		}
		s.Lexical.Upsert(docs...)
	}
	for _, sp := range s.targets() {
		if err := embedInto(ctx, sp, batch); err != nil {
			return err
		}
	}
	return s.Store.MarkIndexed(ctx, batch)
}

func payloadOf(j Stored) vector.Payload {
	return vector.Payload{
		WorkspaceID: j.WorkspaceID, OrganizationID: j.OrganizationID, DocumentID: j.DocumentID,
		Decision: j.Decision, JudgeType: j.JudgeType, ContentType: j.ContentType,
		ReviewerID: j.Reviewer.UserID, AnnotationID: j.AnnotationID, CreatedAt: j.CreatedAt,
	}
}

// Sweep indexes every judgment not marked indexed: those whose indexing
// failed (embedder or index down), moved by a document migration, or
// marked by Reindex. One sweep runs at a time; a second caller waits.
func (s *Service) Sweep(ctx context.Context) (int, error) { return s.sweep(ctx, true) }

// sweep indexes the unindexed judgments; announce tells the other
// replicas (not for a rebuild, which every replica does for itself).
func (s *Service) sweep(ctx context.Context, announce bool) (int, error) {
	select {
	case s.sweeping <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-s.sweeping }()
	total := 0
	for {
		batch, err := s.Store.Unindexed(ctx, sweepBatch)
		if err != nil {
			return total, err
		}
		if err := s.index(ctx, batch); err != nil {
			return total, err
		}
		if announce {
			s.announceBatch(ctx, batch)
		}
		total += len(batch)
		if len(batch) < sweepBatch {
			return total, nil
		}
	}
}

// Reindex marks the judgments written since (epoch ms; 0: all) not indexed
// and sweeps: how an empty embedded index is rebuilt from the store of
// record at start, and how one loaded from a snapshot catches up.
func (s *Service) Reindex(ctx context.Context, since int64) (int, error) {
	if err := s.Store.MarkUnindexed(ctx, since); err != nil {
		return 0, err
	}
	return s.sweep(ctx, false)
}
