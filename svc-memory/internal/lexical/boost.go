package lexical

import (
	"math"
	"slices"
)

// phraseAndProximity rewards query words that the document has next to
// each other (a phrase) and matched words that sit close together.
func (s *shard) phraseAndProximity(qts []queryTerm, a *docAcc, w Weights) float64 {
	var bonus float64
	for f := range numFields {
		// Positions of each matched query term in field f.
		var matched []int
		at := make([][]int32, len(qts))
		for qi, ps := range a.hits {
			for _, p := range ps {
				if int(p.field) == f && p.tf >= 1 {
					at[qi] = s.positions(p)
				}
			}
			if len(at[qi]) > 0 {
				matched = append(matched, qi)
			}
		}
		if len(matched) < 2 {
			continue
		}
		bonus += w[f] * (phraseBonus(qts, at) + proximityBonus(qts, at, matched))
	}
	return bonus
}

// phraseBonus: for each pair of query terms adjacent in the query, in
// order, whether the document has them adjacent in the same order.
func phraseBonus(qts []queryTerm, at [][]int32) float64 {
	var bonus float64
	for i := range qts {
		for j := range qts {
			if i == j || len(at[i]) == 0 || len(at[j]) == 0 || !adjacentInQuery(qts[i].qpos, qts[j].qpos) {
				continue
			}
			if adjacentInDoc(at[i], at[j]) {
				bonus += phraseBoost * (qts[i].idf + qts[j].idf) / 2
			}
		}
	}
	return bonus
}

func adjacentInQuery(a, b []int) bool {
	for _, x := range a {
		if slices.Contains(b, x+1) {
			return true
		}
	}
	return false
}

func adjacentInDoc(a, b []int32) bool {
	for _, x := range a {
		if slices.Contains(b, x+1) {
			return true
		}
	}
	return false
}

// proximityBonus is proximityBoost of the matched IDF times (m-1)/span,
// span being the smallest window of the document holding one position of
// each of the m matched terms (1 when they are consecutive).
func proximityBonus(qts []queryTerm, at [][]int32, matched []int) float64 {
	type occ struct {
		pos int32
		q   int
	}
	var all []occ
	var idf float64
	for _, qi := range matched {
		idf += qts[qi].idf
		for _, p := range at[qi] {
			all = append(all, occ{p, qi})
		}
	}
	slices.SortFunc(all, func(x, y occ) int { return int(x.pos - y.pos) })
	count := map[int]int{}
	best := int32(math.MaxInt32)
	have, lo := 0, 0
	for hi := range all {
		if count[all[hi].q]++; count[all[hi].q] == 1 {
			have++
		}
		for have == len(matched) {
			best = min(best, all[hi].pos-all[lo].pos)
			if count[all[lo].q]--; count[all[lo].q] == 0 {
				have--
			}
			lo++
		}
	}
	if best <= 0 {
		return 0
	}
	return proximityBoost * idf * float64(len(matched)-1) / float64(best)
}
