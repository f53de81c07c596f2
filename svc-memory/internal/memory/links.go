package memory

import (
	"context"
	"maps"
	"slices"

	"github.com/opencollab/backend/svc-memory/internal/lexical"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// Judgment links. Judgments that decide one point are often worded with
// nothing in common ("guaranteed 12% returns" / "risk-free income is
// misleading"), yet they are linked by what they were about: a rejection,
// the author's fix and its approval sit on the same document or
// annotation thread and review versions of the same content. When a
// judgment ranks high, its linked judgments are pulled up after it
// (measured on the evaluation set's dev split, svc-memory/BENCHMARKS.md).
const (
	// linkWeight: a judgment linked to a seed gains linkWeight x the
	// seed's score x the link's strength (linkStrengths), up to just below
	// the seed, so a link never reorders the seeds themselves nor changes
	// the best match that relevance rests on (0.3: dev recall@5 0.941,
	// 0.5: 0.947, 0.7: 0.947).
	linkWeight = 0.5
	// belowSeed keeps a linked judgment under its seed.
	belowSeed = 0.999
)

// contentOnly searches the reviewed content alone: how close two
// judgments' contents are.
var contentOnly = lexical.Weights{0, 1}

// seeds are the stored judgments of the best first-round candidates that
// are evidence on their own (the best always; at most prfDocs): what the
// query expansion reads and whose links are followed.
func (s *Service) seeds(ctx context.Context, ws string, first *candidates) ([]Stored, error) {
	var ids []string
	for _, id := range first.order[:min(len(first.order), prfDocs)] {
		if len(ids) > 0 && !s.evidence(*first.cands[id]) {
			break
		}
		if rid, ok := recordIDOf(ws, id); ok {
			ids = append(ids, rid)
		}
	}
	return s.Store.FindByIDs(ctx, ws, ids)
}

// link raises the candidates linked to a seed (linkStrengths) to
// linkWeight x the seed's score x the strength added to their own,
// staying below the seed. A link to a judgment the legs did not retrieve
// adds it.
func (s *Service) link(ws string, cs *candidates, seeds []Stored, f vector.Filter) {
	type pull struct{ gain, ceiling float64 }
	pulls := map[string]pull{}
	for _, seed := range seeds {
		sid := pointID(ws, seed.RecordID)
		top := cs.cands[sid].rel
		for id, strength := range s.linkStrengths(cs, seed, sid, f) {
			if gain := linkWeight * top * strength; gain > pulls[id].gain {
				pulls[id] = pull{gain, belowSeed * top}
			}
		}
	}
	// In a fixed order: a judgment the legs did not return joins the
	// candidates here, and ties keep the order they joined in.
	for _, id := range slices.Sorted(maps.Keys(pulls)) {
		p := pulls[id]
		c := cs.get(id)
		if c.rel < p.ceiling {
			c.rel = min(c.rel+p.gain, p.ceiling)
		}
	}
}

// linkStrengths are the strengths, in [0, 1], of the seed's links to other
// judgments by point id: the largest of
//   - the same annotation thread or the same document (sharedPlaces), 1/n
//     for the n candidates that share it (a long document carries many
//     points, so a shared document says less the more judgments it has),
//     and
//   - the similarity of the reviewed contents: the BM25 score of the
//     other judgment's content for the seed's content as the query, as a
//     share of the seed's own.
func (s *Service) linkStrengths(cs *candidates, seed Stored, sid string, f vector.Filter) map[string]float64 {
	out := map[string]float64{}
	set := func(id string, strength float64) {
		if id != sid {
			out[id] = max(out[id], strength)
		}
	}
	for _, group := range sharedPlaces(cs, seed, sid) {
		for _, id := range group {
			set(id, 1/float64(len(group)))
		}
	}
	if seed.Content == "" || s.Lexical == nil || s.Retrieval == RetrievalVector {
		return out
	}
	hits := s.Lexical.Search(seed.Content, f, fuseDepth, contentOnly)
	self := 0.0
	for _, h := range hits {
		if h.ID == sid {
			self = h.Score
		}
	}
	if self == 0 {
		return out // the seed's own content is not in the filtered index
	}
	for _, h := range hits {
		set(h.ID, min(h.Score/self, 1))
	}
	return out
}

// sharedPlaces are the other candidates on the seed's annotation thread
// and those on its document. Two different threads of one document are
// two points (a citation thread and a wording thread), so the document
// links a judgment without a thread (a decision on the whole document)
// to the others, not one thread to another.
func sharedPlaces(cs *candidates, seed Stored, sid string) [][]string {
	var thread, doc []string
	for _, id := range cs.order {
		p := cs.cands[id].payload
		switch {
		case id == sid:
		case seed.AnnotationID != "" && p.AnnotationID == seed.AnnotationID:
			thread = append(thread, id)
		case seed.DocumentID != "" && p.DocumentID == seed.DocumentID &&
			(seed.AnnotationID == "" || p.AnnotationID == ""):
			doc = append(doc, id)
		}
	}
	return [][]string{thread, doc}
}
