package memory

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/opencollab/backend/svc-memory/internal/lexical"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// Retrieval modes: the vector leg, the lexical leg, or both fused.
const (
	RetrievalHybrid  = "hybrid"
	RetrievalVector  = "vector"
	RetrievalLexical = "lexical"
)

// Fusion and relevance tuning (the evaluation set measures them; see
// internal/evalset and README).
const (
	// fuseDepth is how many candidates each leg contributes at least.
	fuseDepth = 50
	// vectorShare weighs the vector leg's normalised score against the
	// lexical leg's when both found something (the hashing embedder is
	// the noisier leg; 0.3 before the reviewed content joined the lexical
	// leg's ranking; dev split recall 0.860 at 0.3, 0.884 at 0.15).
	vectorShare = 0.15
	// coordExponent: the lexical leg's share of a judgment is scaled by
	// (query words found / query words)^coordExponent, a coordination
	// factor as in Lucene's classic similarity: a judgment that has one
	// rare query word ranks below one that has most of them.
	coordExponent = 0.5
	// DefaultMinCoverage is the lexical coverage (lexical.Hit.Coverage) at
	// which a judgment counts as evidence on its own.
	DefaultMinCoverage = 0.3
	// prfWeight is the share of the expanded query's scores (the second
	// round of retrieve).
	prfWeight = 0.8
	// prfDocs is how many of the best first-round judgments expand the
	// query (the best always; the others when they are evidence too).
	prfDocs = 3
	// supportFloor: every relevant judgment has at least this share of the
	// absolute evidence the best needs, from the query itself (a judgment
	// reached only through the expanded query, or sharing one common
	// word, does not count as precedent).
	supportFloor = 0.3
	// relativeFloor: a relevant judgment scores at least this share of the
	// best evidence (scored.match), once the best passed the absolute gate.
	relativeFloor = 0.05
	// vectorOnlyFloor replaces relativeFloor for a judgment that shares
	// no word (nor lexicon concept) with the query while the lexical leg
	// is on: its cosine alone must come this close to the best evidence.
	// Near the embedder's noise level an unrelated text ("Document is
	// ready to ship" for "logo contrast", cosine 0.22) otherwise passes
	// the 5 % floor.
	vectorOnlyFloor = 0.15
	// bestLevel is the evidence level (evidenceLevel) the best match
	// needs, on at least two of the query's words (severalWords).
	bestLevel = 0.5
)

// scored is a judgment retrieved for a query.
type scored struct {
	Stored
	// score is the similarity reported to clients: rel scaled by the
	// absolute evidence of the best match, so it orders like rel and a
	// query that matches nothing well scores low throughout.
	score float64
	// rel is the fused score normalised per query: 1 for the best match.
	rel float64
	// match is how close the judgment comes to the best evidence of the
	// query in either leg: the larger of its cosine as a share of the best
	// cosine (both above the noise level, half of MinSimilarity: unrelated
	// texts score up to ~0.2 on the built-in embedder) and its BM25 score
	// as a share of the best BM25 score. It
	// decides relevance and weighs precedent (a paraphrase is not drowned
	// by an exact phrase match found by the other leg).
	match float64
	// cos is the vector similarity (-1 when the vector leg did not return
	// the judgment); cov the lexical coverage (0 when the lexical leg did
	// not).
	cos, cov float64
	// matched and words are the lexical leg's lexical.Hit.Matched and
	// Words (0 when it did not return the judgment).
	matched, words int
	// payload is the judgment's index payload (its document and
	// annotation link it to others).
	payload vector.Payload
}

// fields returns the lexical field weights of the index searched.
func (s *Service) fields(content bool) lexical.Weights {
	if content {
		return lexical.ContentWeights
	}
	return lexical.ReviewWeights
}

// retrieve finds the judgments of ws matching f most related to text,
// best first: the vector and lexical legs each return their best
// candidates, whose scores are normalised per query (min-max for cosine,
// share of the best for BM25) and summed with vectorShare (fuse). When
// the best candidate is evidence on its own, the query is expanded with
// its text and the legs run again (pseudo-relevance feedback: judgments
// deciding the same point in other words are found through the one that
// matched), the second round counting prfWeight of the first in the
// ranking (rel) but not in relevance (match, from the query alone: the
// expansion must not turn a shared common word into precedent); then the
// judgments linked to the best ones are pulled up (link). The result is
// joined with the store (a hit whose judgment is gone is dropped).
func (s *Service) retrieve(ctx context.Context, ws string, content bool, text string, f Filter, limit int) ([]scored, error) {
	first, err := s.fuse(ctx, ws, content, text, f, limit)
	if err != nil || len(first.order) == 0 {
		return s.join(ctx, ws, first, limit)
	}
	if !s.evidence(*first.cands[first.order[0]]) {
		return s.join(ctx, ws, first, limit)
	}
	seeds, err := s.seeds(ctx, ws, first)
	if err != nil {
		return nil, err
	}
	if expansion := expansionOf(seeds, content); expansion != "" {
		second, err := s.fuse(ctx, ws, content, text+"\n"+expansion, f, limit)
		if err != nil {
			return nil, err
		}
		first.merge(second)
	}
	s.link(ws, first, seeds, f.vector(ws))
	return s.join(ctx, ws, first, limit)
}

// expansionOf is the text of the seeds: what the query found in the words
// of the judgments themselves.
func expansionOf(seeds []Stored, content bool) string {
	texts := make([]string, 0, len(seeds))
	for _, j := range seeds {
		if content {
			texts = append(texts, j.ContentText())
		} else {
			texts = append(texts, j.ReviewText())
		}
	}
	return strings.Join(texts, "\n")
}

// candidates are one retrieval round's fused candidates by point id, in
// the order found.
type candidates struct {
	cands map[string]*scored
	order []string
}

// merge takes the expanded query's round at prfWeight of its scores.
func (cs *candidates) merge(second *candidates) {
	for _, id := range second.order {
		c2 := second.cands[id]
		c := cs.get(id)
		c.rel = max(c.rel, prfWeight*c2.rel)
		if c.payload == (vector.Payload{}) {
			c.payload = c2.payload
		}
	}
}

func (cs *candidates) get(id string) *scored {
	c := cs.cands[id]
	if c == nil {
		c = &scored{cos: -1}
		cs.cands[id] = c
		cs.order = append(cs.order, id)
	}
	return c
}

// fuse runs both legs once and sums their normalised scores (rel), best
// first in order.
func (s *Service) fuse(ctx context.Context, ws string, content bool, text string, f Filter, limit int) (*candidates, error) {
	depth := max(limit, fuseDepth)
	cs := &candidates{cands: map[string]*scored{}}
	vf := f.vector(ws)
	if s.Retrieval != RetrievalLexical {
		hits, err := s.vectorHits(ctx, content, text, vf, depth)
		if err != nil {
			return nil, err
		}
		lo, hi := scoreRange(hits)
		for _, h := range hits {
			c := cs.get(h.ID)
			c.payload = h.Payload
			c.cos = float64(h.Score)
			c.rel += s.share(true) * normalise(c.cos, lo, hi)
			if noise := s.MinSimilarity / 2; hi > noise {
				c.match = max(c.match, max(c.cos-noise, 0)/(hi-noise))
			}
		}
	}
	if s.Retrieval != RetrievalVector && s.Lexical != nil {
		hits := s.Lexical.Search(text, vf, depth, s.fields(content))
		for _, h := range hits {
			c := cs.get(h.ID)
			c.payload = h.Payload
			c.cov = h.Coverage
			c.matched, c.words = h.Matched, h.Words
			c.rel += s.share(false) * h.Score / hits[0].Score * coordination(h)
			c.match = max(c.match, h.Score/hits[0].Score)
		}
	}
	slices.SortStableFunc(cs.order, func(a, b string) int {
		return -cmpFloat(cs.cands[a].rel, cs.cands[b].rel)
	})
	return cs, nil
}

// coordination is the share of the query's words a lexical hit has in
// any field searched, raised to coordExponent.
func coordination(h lexical.Hit) float64 {
	return math.Pow(float64(h.Found)/float64(max(h.Words, 1)), coordExponent)
}

// share is the weight of a leg in the fused score: the configured share
// in hybrid mode, everything in a single-leg mode.
func (s *Service) share(vectorLeg bool) float64 {
	switch s.Retrieval {
	case RetrievalVector, RetrievalLexical:
		return 1
	}
	if vectorLeg {
		return vectorShare
	}
	return 1 - vectorShare
}

func (s *Service) vectorHits(ctx context.Context, content bool, text string, f vector.Filter, depth int) ([]vector.Hit, error) {
	sp := s.serving()
	if sp == nil {
		return nil, nil // no usable vectors yet (a model change without the old embedder)
	}
	vecs, err := sp.Embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("embed query: got %d vectors", len(vecs))
	}
	idx := sp.Review
	if content {
		idx = sp.Content
	}
	hits, err := idx.Search(ctx, vecs[0], f, depth)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	return hits, nil
}

// scoreRange is the lowest and highest score of hits (best first).
func scoreRange(hits []vector.Hit) (lo, hi float64) {
	if len(hits) == 0 {
		return 0, 0
	}
	return float64(hits[len(hits)-1].Score), float64(hits[0].Score)
}

// normalise maps x in [lo, hi] to [0, 1]; a single hit (lo == hi) is 1.
func normalise(x, lo, hi float64) float64 {
	if hi-lo < 1e-9 {
		return 1
	}
	return (x - lo) / (hi - lo)
}
