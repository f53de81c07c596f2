package lexical

import (
	"math"
	"slices"

	"github.com/opencollab/backend/svc-memory/internal/analysis"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// BM25 parameters (the usual defaults) and the boosts.
const (
	k1 = 1.2
	b  = 0.75
	// phraseBoost adds this share of a query bigram's IDF when the
	// document has the two words next to each other, in order.
	phraseBoost = 0.6
	// proximityBoost adds this share of the matched IDF, scaled by how
	// tightly the matched words sit together.
	proximityBoost = 0.3
	// maxQueryTerms bounds the work of a very long query;
	// maxQueryTermsSenses with the thesaurus, whose senses (several a
	// word) come after the words and concepts.
	maxQueryTerms       = 64
	maxQueryTermsSenses = 256
	// rerankFactor: phrase and proximity are computed for this many
	// times limit best BM25 candidates.
	rerankFactor = 4
)

type queryTerm struct {
	stem string
	id   uint32
	ok   bool // the term occurs in the shard
	idf  float64
	qpos []int
	// weight scales the term: 1, or negatedTF for the plain form a
	// negated query term also looks for ("is the citation missing?"
	// still concerns judgments that mention a citation).
	weight float64
}

// docAcc accumulates one candidate document.
type docAcc struct {
	doc   uint32
	score float64
	// hits[i] are the postings of query term i in this document.
	hits [][]posting
}

func (s *shard) queryTerms(terms []analysis.Term, senses sensesFunc) []queryTerm {
	var out []queryTerm
	limit := maxQueryTerms
	if senses != nil {
		limit = maxQueryTermsSenses
	}
	index := map[string]int{}
	n := float64(max(s.live, 1))
	add := func(stem string, qi int, weight float64) {
		if i, ok := index[stem]; ok {
			out[i].qpos = append(out[i].qpos, qi)
			out[i].weight = max(out[i].weight, weight)
			return
		}
		if len(out) == limit {
			return
		}
		qt := queryTerm{stem: stem, qpos: []int{qi}, weight: weight}
		qt.id, qt.ok = s.termIDs[stem]
		qt.idf = s.idf(qt.id, qt.ok, n)
		index[stem] = len(out)
		out = append(out, qt)
	}
	for qi, t := range terms {
		add(t.Stem, qi, 1)
	}
	for qi, t := range terms {
		if t.Negated {
			add(t.Stem[len(analysis.NegPrefix):], qi, negatedTF)
		}
		if t.Concept != "" {
			add(conceptPrefix+t.Concept, qi, conceptTF)
		}
		if senses == nil {
			continue
		}
		for _, sn := range senses(t) {
			add(senseTerm(sn, t.Negated), qi, senseTF*float64(sn.Weight))
		}
	}
	return out
}

func (s *shard) idf(id uint32, ok bool, n float64) float64 {
	df := 0.0
	if ok {
		df = float64(min(len(s.postings[id]), int(n)))
	}
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}

func (s *shard) search(terms []analysis.Term, f vector.Filter, limit int, w Weights, senses sensesFunc) []Hit {
	qts := s.queryTerms(terms, senses)
	accs := s.accumulate(qts, f, w)
	if len(accs) == 0 {
		return nil
	}
	slices.SortFunc(accs, byScore)
	top := accs[:min(len(accs), rerankFactor*limit)]
	for _, a := range top {
		a.score += s.phraseAndProximity(qts, a, w)
	}
	slices.SortFunc(top, byScore)
	top = top[:min(len(top), limit)]
	hits := make([]Hit, len(top))
	for i, a := range top {
		d := &s.docs[a.doc]
		ev := evidenceFields(w)
		hits[i] = Hit{ID: d.id, Payload: d.payload, Score: a.score, Coverage: s.coverage(qts, a, ev)}
		hits[i].Matched, hits[i].Words = matchedWords(qts, a, ev)
		hits[i].Found, _ = matchedWords(qts, a, [numFields]bool{true, true})
	}
	return hits
}

func byScore(a, b *docAcc) int {
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	}
	return int(a.doc) - int(b.doc)
}

// accumulate scores every live document matching f that has a query term
// (BM25F: field term frequencies are length-normalised, weighted and
// summed before the saturation).
func (s *shard) accumulate(qts []queryTerm, f vector.Filter, w Weights) []*docAcc {
	byDoc := map[uint32]*docAcc{}
	rejected := map[uint32]bool{}
	var avg [numFields]float64
	for fi := range avg {
		avg[fi] = max(s.totalLen[fi]/float64(max(s.live, 1)), 1)
	}
	for qi, qt := range qts {
		if !qt.ok {
			continue
		}
		for _, p := range s.postings[qt.id] {
			a := byDoc[p.doc]
			if a == nil {
				if rejected[p.doc] {
					continue
				}
				d := &s.docs[p.doc]
				if !d.live || !f.Match(d.payload) {
					rejected[p.doc] = true
					continue
				}
				a = &docAcc{doc: p.doc, hits: make([][]posting, len(qts))}
				byDoc[p.doc] = a
			}
			a.hits[qi] = append(a.hits[qi], p)
		}
	}
	out := make([]*docAcc, 0, len(byDoc))
	for _, a := range byDoc {
		d := &s.docs[a.doc]
		for qi, ps := range a.hits {
			var tf float64
			for _, p := range ps {
				norm := 1 - b + b*float64(d.length[p.field])/avg[p.field]
				tf += w[p.field] * float64(p.tf) / norm
			}
			if tf > 0 {
				a.score += qts[qi].weight * qts[qi].idf * tf * (k1 + 1) / (k1 + tf)
			}
		}
		if a.score > 0 { // not only in fields the search weighs 0
			out = append(out, a)
		}
	}
	return out
}

// evidenceFields are the fields a search weighs fully: what a judgment
// says there is evidence (Coverage, Matched); a field weighed less only
// helps ranking (a review search finds a judgment also by the reviewed
// content, but the reasoning has to make the point).
func evidenceFields(w Weights) [numFields]bool {
	var ev [numFields]bool
	for f, x := range w {
		ev[f] = x >= 1
	}
	return ev
}

// coverage is the larger of the query's IDF share the document has and
// the document's review-term IDF share the query has (see Hit).
func (s *shard) coverage(qts []queryTerm, a *docAcc, ev [numFields]bool) float64 {
	var total, have float64
	queryHas := map[uint32]bool{}
	for qi, qt := range qts {
		if qt.weight < 1 {
			continue // the plain form of a negated term: not the query's own
		}
		total += qt.idf
		if qt.ok {
			queryHas[qt.id] = true
		}
		var best float32
		for _, p := range a.hits[qi] {
			if ev[p.field] {
				best = max(best, min(p.tf, 1))
			}
		}
		have += qt.idf * float64(best)
	}
	querySide := 0.0
	if total > 0 {
		querySide = have / total
	}
	n := float64(max(s.live, 1))
	var docTotal, docHave float64
	for _, id := range s.docs[a.doc].terms {
		idf := s.idf(id, true, n)
		docTotal += idf
		if queryHas[id] {
			docHave += idf
		}
	}
	docSide := 0.0
	if docTotal > 0 {
		docSide = docHave / docTotal
	}
	return max(querySide, docSide)
}

// matchedWords counts the query word positions the document matched
// (through any of their terms) and the query's word positions.
func matchedWords(qts []queryTerm, a *docAcc, ev [numFields]bool) (matched, words int) {
	all, have := map[int]bool{}, map[int]bool{}
	for qi, qt := range qts {
		in := slices.ContainsFunc(a.hits[qi], func(p posting) bool { return ev[p.field] })
		for _, p := range qt.qpos {
			all[p] = true
			if in {
				have[p] = true
			}
		}
	}
	return len(have), len(all)
}
