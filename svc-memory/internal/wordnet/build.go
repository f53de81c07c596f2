package wordnet

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/opencollab/backend/svc-memory/internal/analysis"
)

// Options choose what of WordNet goes into the thesaurus.
type Options struct {
	// Senses is how many of a lemma's most frequent senses per part of
	// speech count (WordNet orders senses by their frequency in tagged
	// text): rare senses ("cure" as preserving meat) would join unrelated
	// words.
	Senses int
}

// DefaultOptions are the options of the committed thesaurus.
var DefaultOptions = Options{Senses: 3}

// relatedSymbols are the pointers whose targets are near concepts of a
// sense: hypernyms ("cure" → "medicine"), derivationally related forms
// ("substantiate" ↔ "substantiation"), similar adjectives, attributes
// ("cheap" → "price"), pertainyms and entailments ("cure" → "treat").
var relatedSymbols = map[string]bool{"@": true, "@i": true, "+": true, "&": true, "=": true, "\\": true, "*": true}

// entry is one word's concepts: the synsets of its words' frequent senses
// (direct) and the synsets near them (related).
type entry struct {
	direct, related map[key]bool
}

// Build reads WordNet from dir and returns the thesaurus text
// (internal/analysis reads it): one line per word (a lemma or an
// irregular inflection), "word<TAB>direct concepts<TAB>related concepts".
// Words, not stems: Porter2 conflates words of different meaning
// ("informal", "information"), WordNet's lemmas do not. Concepts are numbered
// densely, lines and numbers in a fixed order so the output depends only
// on the database and the options.
func Build(dir string, opt Options) ([]byte, error) {
	db, err := load(dir)
	if err != nil {
		return nil, err
	}
	words := map[string]*entry{}
	for _, lemma := range slices.Sorted(maps.Keys(db.senses)) {
		if usable(lemma) {
			db.addLemma(words, lemma, lemma, opt)
		}
	}
	// Irregular inflections ("children", "paid") take their lemmas'
	// concepts: the regular ones are reduced at lookup
	// (analysis.lemmaCandidates), these are not.
	for _, form := range slices.Sorted(maps.Keys(db.exceptions)) {
		if !usable(form) {
			continue
		}
		for _, lemma := range db.exceptions[form] {
			if usable(lemma) && lemma != form {
				db.addLemma(words, form, lemma, opt)
			}
		}
	}
	return encode(words), nil
}

// usable: a single lowercase word that the analyser keeps (multi-word
// lemmas, hyphenated ones and function words never reach a lookup).
func usable(lemma string) bool {
	if len(lemma) < 2 || analysis.StopWord(lemma) {
		return false
	}
	for i := 0; i < len(lemma); i++ {
		if lemma[i] < 'a' || lemma[i] > 'z' {
			return false
		}
	}
	return true
}

func (db *database) addLemma(words map[string]*entry, word, lemma string, opt Options) {
	e := words[word]
	if e == nil {
		e = &entry{direct: map[key]bool{}, related: map[key]bool{}}
		words[word] = e
	}
	for _, senses := range db.senses[lemma] {
		for _, k := range senses[:min(len(senses), opt.Senses)] {
			e.direct[k] = true
			db.addRelated(e, k, lemma)
		}
	}
}

// addRelated adds the targets of k's related pointers; a lexical pointer
// (between two words, not two synsets) only when it starts at lemma.
func (db *database) addRelated(e *entry, k key, lemma string) {
	s := db.synsets[k]
	if s == nil {
		return
	}
	for _, p := range s.pointers {
		if !relatedSymbols[p.symbol] {
			continue
		}
		if p.source > 0 && (p.source > len(s.words) || s.words[p.source-1] != lemma) {
			continue
		}
		e.related[p.target] = true
	}
}

// encode keeps the concepts that at least two words share (a concept of
// one word adds nothing to the word itself), numbers them in key order
// and writes the words that have any, sorted.
func encode(words map[string]*entry) []byte {
	users := map[key]int{}
	for _, e := range words {
		for k := range e.direct {
			users[k]++
		}
		for k := range e.related {
			if !e.direct[k] {
				users[k]++
			}
		}
	}
	var shared []key
	for k, n := range users {
		if n >= 2 {
			shared = append(shared, k)
		}
	}
	slices.SortFunc(shared, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.offset, b.offset))
	})
	id := make(map[key]int, len(shared))
	for i, k := range shared {
		id[k] = i
	}
	var body bytes.Buffer
	n := 0
	for _, word := range slices.Sorted(maps.Keys(words)) {
		e := words[word]
		direct := ids(e.direct, nil, id)
		related := ids(e.related, e.direct, id)
		if len(direct)+len(related) == 0 {
			continue
		}
		n++
		body.WriteString(word)
		writeIDs(&body, direct)
		writeIDs(&body, related)
		body.WriteByte('\n')
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "# thesaurus derived from WordNet 3.0 by cmd/lexicongen: %d words, %d concepts\n", n, len(shared))
	out.Write(body.Bytes())
	return out.Bytes()
}

func ids(set, except map[key]bool, id map[key]int) []int {
	var out []int
	for k := range set {
		if i, ok := id[k]; ok && !except[k] {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

func writeIDs(buf *bytes.Buffer, ids []int) {
	buf.WriteByte('\t')
	for i, id := range ids {
		if i > 0 {
			buf.WriteByte(' ')
		}
		buf.WriteString(strconv.Itoa(id))
	}
}
