package analysis

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"strconv"
	"strings"
	"sync"
)

// thesaurusGz is the general-purpose thesaurus derived from WordNet 3.0 by
// cmd/lexicongen (WORDNET_LICENSE): for each word, the WordNet concepts
// (synsets) of its most frequent senses and the concepts near them
// (hypernyms, derived forms, similar adjectives). Two words meet when they
// share one: "cost" and "price", "cure" and "heal", "promise" and
// "guarantee". The hand lexicon (lexicon.go) stays for the vocabulary of
// review that WordNet lacks.
//
//go:embed thesaurus.txt.gz
var thesaurusGz []byte

// ThesaurusText returns the embedded thesaurus uncompressed (the test of
// internal/wordnet compares it with what the generator writes).
func ThesaurusText() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(thesaurusGz))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// Weights of a shared concept: a sense of both words counts fully, a
// concept near one of them (a hypernym, a derived form) half.
const (
	senseDirect  = 1.0
	senseRelated = 0.5
)

// Sense is one WordNet concept of a word, for the legs to index and query
// as a term below the word's own stem.
type Sense struct {
	ID     uint32
	Weight float32
}

// thesaurus holds every word's senses in one arena: spans[word] is the
// half-open range of senses.
type thesaurus struct {
	spans  map[string][2]uint32
	senses []Sense
}

var loadThesaurus = sync.OnceValue(func() *thesaurus {
	th, err := parseThesaurus()
	if err != nil {
		panic("analysis: embedded thesaurus: " + err.Error()) // a build defect, caught by the tests
	}
	return th
})

func parseThesaurus() (*thesaurus, error) {
	text, err := ThesaurusText()
	if err != nil {
		return nil, err
	}
	th := &thesaurus{spans: map[string][2]uint32{}}
	sc := bufio.NewScanner(bytes.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		word, rest, _ := strings.Cut(line, "\t")
		direct, related, _ := strings.Cut(rest, "\t")
		start := uint32(len(th.senses))
		if err := th.add(direct, senseDirect); err != nil {
			return nil, err
		}
		if err := th.add(related, senseRelated); err != nil {
			return nil, err
		}
		th.spans[word] = [2]uint32{start, uint32(len(th.senses))}
	}
	return th, sc.Err()
}

func (th *thesaurus) add(ids string, w float32) error {
	for _, f := range strings.Fields(ids) {
		id, err := strconv.ParseUint(f, 10, 32)
		if err != nil {
			return err
		}
		th.senses = append(th.senses, Sense{ID: uint32(id), Weight: w})
	}
	return nil
}

// SensesOf returns the thesaurus senses of a lowercase word: those of the
// word itself, else of the first base form WordNet's detachment rules
// give ("cures" → "cure", "cheaper" → "cheap"). The slice is shared; do
// not modify it.
func SensesOf(word string) []Sense {
	th := loadThesaurus()
	if sp, ok := th.spans[word]; ok {
		return th.senses[sp[0]:sp[1]]
	}
	for _, r := range detachments {
		if base, ok := strings.CutSuffix(word, r.suffix); ok && base != "" {
			if sp, ok := th.spans[base+r.ending]; ok {
				return th.senses[sp[0]:sp[1]]
			}
		}
	}
	return nil
}

// detachments are WordNet's morphological rules (morphy) for nouns,
// verbs and adjectives, in its order.
var detachments = []struct{ suffix, ending string }{
	{"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"},
	{"s", ""}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""},
	{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"},
}
