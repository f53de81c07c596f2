package memory

import (
	"strings"
	"unicode"
)

// functionWords are English words that carry no topic. The hashing
// embedder weighs every word alike, so two unrelated sentences sharing
// "what is the ... in the" scored up to 0.35; without them unrelated
// texts stay below 0.17 while paraphrases keep 0.27 and more (measured on
// review-like sentences, see keywords_test.go). Negations (no, not) stay:
// their bigrams tell "approved" from "not approved".
var functionWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but if then else of to in on at by for with about from
		into over under as is are was were be been being am do does did doing have has had having i me my we us
		our you your he she it its they them their this that these those what which who whom whose when where
		why how can could should would will shall may might must so than too very just also there here any some
		all each every more most other such only own same few both again further once s t ok okay please`) {
		m[w] = true
	}
	return m
}()

// embedText is the text handed to the embedder for a judgment or a query.
func (s *Service) embedText(text string) string {
	if !s.KeywordsOnly {
		return text
	}
	if k := keywords(text); k != "" {
		return k
	}
	return text // only function words: better than the zero vector
}

// keywords lowercases text and drops function words.
func keywords(text string) string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r)
	})
	kept := words[:0]
	for _, w := range words {
		if !functionWords[w] {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}
