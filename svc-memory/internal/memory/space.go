package memory

import (
	"context"
	"errors"
	"fmt"

	"github.com/opencollab/backend/svc-memory/internal/lexical"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// VectorSpace is one embedding model's vectors: the embedder and the two
// indexes (review, content) its vectors live in. Model tags them (model
// name and dimension), and an index holds the vectors of one model only:
// changing the model builds a new space beside the serving one (Reembed).
type VectorSpace struct {
	Model    string
	Embedder Embedder
	Review   Index
	Content  Index
}

// spaceSet is what retrieval reads (serving) and what indexing writes
// (serving and building). serving is nil when the model changed and the
// previous model's embedder cannot be used any more: retrieval is lexical
// until the new space is complete.
type spaceSet struct {
	serving, building *VectorSpace
}

func (s *Service) serving() *VectorSpace { return s.spaces.Load().serving }

// targets are the spaces a new judgment is written to.
func (s *Service) targets() []*VectorSpace {
	set := s.spaces.Load()
	var out []*VectorSpace
	for _, sp := range []*VectorSpace{set.serving, set.building} {
		if sp != nil {
			out = append(out, sp)
		}
	}
	return out
}

// SetServing replaces the serving space (nil: none until a re-embed
// completes).
func (s *Service) SetServing(sp *VectorSpace) {
	set := *s.spaces.Load()
	set.serving = sp
	s.spaces.Store(&set)
}

// embedInto embeds the judgments (review and content texts in one call)
// with the space's model and upserts them into its two indexes.
func embedInto(ctx context.Context, sp *VectorSpace, batch []Stored) error {
	texts := make([]string, 0, 2*len(batch))
	for _, j := range batch {
		texts = append(texts, j.ReviewText(), j.ContentText())
	}
	vecs, err := sp.Embedder.Embed(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed %d judgments with %s: %w", len(batch), sp.Model, err)
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("embed %d texts with %s: got %d vectors", len(texts), sp.Model, len(vecs))
	}
	review := make([]vector.Point, len(batch))
	content := make([]vector.Point, len(batch))
	for i, j := range batch {
		id, payload := pointID(j.WorkspaceID, j.RecordID), payloadOf(j)
		review[i] = vector.Point{ID: id, Vector: vecs[2*i], Payload: payload}
		content[i] = vector.Point{ID: id, Vector: vecs[2*i+1], Payload: payload}
	}
	if err := sp.Review.Upsert(ctx, review...); err != nil {
		return fmt.Errorf("upsert review vectors: %w", err)
	}
	if err := sp.Content.Upsert(ctx, content...); err != nil {
		return fmt.Errorf("upsert content vectors: %w", err)
	}
	return nil
}

// deleteEverywhere removes a judgment's vectors from every space and its
// terms from the lexical index.
func (s *Service) deleteEverywhere(ctx context.Context, ws, recordID string) error {
	id := pointID(ws, recordID)
	var errs []error
	for _, sp := range s.targets() {
		errs = append(errs, sp.Review.Delete(ctx, id), sp.Content.Delete(ctx, id))
	}
	if s.Lexical != nil {
		s.Lexical.Delete(ws, id)
		s.announce(ctx, ws, []string{recordID})
	}
	return errors.Join(errs...)
}

// lexicalDoc is what the lexical index keeps of a judgment.
func lexicalDoc(j Stored) lexical.Doc {
	return lexical.Doc{ID: pointID(j.WorkspaceID, j.RecordID), Review: j.ReviewText(), Content: j.Content, Payload: payloadOf(j)}
}

// LoadLexical fills the lexical index from the store of record (at start:
// it keeps no state of its own).
func (s *Service) LoadLexical(ctx context.Context) (int, error) {
	if s.Lexical == nil {
		return 0, nil
	}
	n := 0
	err := s.Store.Each(ctx, sweepBatch*4, func(batch []Stored) error {
		docs := make([]lexical.Doc, len(batch))
		for i, j := range batch {
			docs[i] = lexicalDoc(j)
		}
		s.Lexical.Upsert(docs...)
		n += len(batch)
		return nil
	})
	return n, err
}
