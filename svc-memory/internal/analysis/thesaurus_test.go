package analysis

import "testing"

func shareSense(a, b []Sense) bool {
	for _, x := range a {
		for _, y := range b {
			if x.ID == y.ID {
				return true
			}
		}
	}
	return false
}

// Words of one meaning share a WordNet concept, inflected forms find
// their lemma's (morphy's detachment rules and the exception lists), and
// unrelated words share none.
func TestThesaurusSenses(t *testing.T) {
	t.Parallel()
	related := [][2]string{
		{"cost", "price"}, {"cure", "heal"}, {"cures", "heals"}, {"cheap", "inexpensive"},
		{"children", "child"}, {"riskless", "safe"}, {"promise", "guarantee"},
	}
	for _, p := range related {
		if !shareSense(SensesOf(p[0]), SensesOf(p[1])) {
			t.Errorf("%q and %q share no concept", p[0], p[1])
		}
	}
	for _, p := range [][2]string{{"price", "banana"}, {"cure", "invoice"}} {
		if shareSense(SensesOf(p[0]), SensesOf(p[1])) {
			t.Errorf("%q and %q share a concept", p[0], p[1])
		}
	}
	if s := SensesOf("zzxq"); s != nil {
		t.Errorf("unknown word has senses %v", s)
	}
}
