package memory

// Relevance: which retrieved judgments are evidence for a query (ask and
// suggest keep only those). The constants are in retrieve.go with the
// other tuning.

// evidence reports whether a judgment is, in absolute terms, a match on
// its own: its cosine and lexical coverage, as shares of MinSimilarity
// and MinCoverage, add up to bestLevel, and it shares at least two words
// with the query. Only the best match must be; a word in common ("the new
// header" for "the new screenshots") is not enough.
func (s *Service) evidence(sc scored) bool {
	return s.evidenceLevel(sc) >= bestLevel && s.severalWords(sc)
}

// severalWords: with the lexical leg on, evidence rests on at least two
// of the query's words (a one-word query: that word); one shared word,
// however rare, is how unrelated texts meet ("vacation days" and "60
// days notice").
func (s *Service) severalWords(sc scored) bool {
	if s.Retrieval == RetrievalVector || s.Lexical == nil {
		return true
	}
	return sc.matched >= min(2, max(sc.words, 1))
}

// evidenceLevel is how much evidence a judgment other than the best
// brings: its cosine as a share of MinSimilarity plus its coverage as a
// share of MinCoverage (partial evidence from both legs adds up).
func (s *Service) evidenceLevel(sc scored) float64 {
	return max(sc.cos, 0)/s.MinSimilarity + sc.cov/s.MinCoverage
}

// relevant keeps the judgments that are evidence for the query. The best
// match must be evidence on its own (evidence: both legs' shares adding
// up, on two of the query's words): otherwise nothing is relevant. The others are
// kept when they have supportFloor of that evidence themselves (cosine and
// coverage shares adding up) and score at least relativeFloor of the best
// (scored.match), so the threshold follows each query's best evidence
// instead of a fixed cosine; vectorOnlyFloor when the judgment shares no
// word with the query (floorOf).
func (s *Service) relevant(found []scored) []scored {
	if len(found) == 0 || !s.evidence(found[0]) {
		return nil
	}
	var out []scored
	for _, sc := range found {
		if sc.match >= s.floorOf(sc) && s.evidenceLevel(sc) >= supportFloor {
			out = append(out, sc)
		}
	}
	return out
}

// floorOf is the share of the best evidence (scored.match) a judgment
// other than the best needs: relativeFloor, or vectorOnlyFloor when the
// lexical leg is on and found none of the query's words in it.
func (s *Service) floorOf(sc scored) float64 {
	if s.Retrieval != RetrievalVector && s.Lexical != nil && sc.matched == 0 {
		return vectorOnlyFloor
	}
	return relativeFloor
}
