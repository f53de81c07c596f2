package api

import (
	"slices"
	"strings"
)

// closest is the known name nearest to name: the same name in other case,
// or the one fewest edits away when that is at most a third of its length
// (at least 2). "" when nothing is near enough to be a likely typo.
func closest(name string, known []string) string {
	if len(name) > 64 {
		return "" // no field name is that long; spare the quadratic work
	}
	slices.Sort(known) // ties go to the same name on every call
	best, bestDist := "", -1
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(k))
		if bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if bestDist < 0 || bestDist > max(2, len(name)/3) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance of a and b (bytes; names are
// ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// UnknownFieldMessage is the refusal text of an unknown field at path, with
// the closest of known when one is near: for decoders that read fields one
// by one (and so cannot use Decode's check) but must answer the same way.
func UnknownFieldMessage(path, key string, known []string) string {
	if near := closest(key, known); near != "" {
		return "unknown field " + path + "; did you mean " + near + "?"
	}
	return "unknown field " + path
}
