// Package analysis turns review text into the terms both retrieval legs
// use: the lexical index (BM25) and the built-in embedder. It lowercases,
// splits into words, drops function words, stems (Porter2), marks words in
// the scope of a negation ("no citation", "the citation is missing"), and
// maps words to concepts of a small built-in lexicon (lexicon.go), so that
// "health claim" and "medical claim" share a concept.
package analysis

import (
	"strings"
	"unicode"
)

// Term is one analysed word.
type Term struct {
	// Word is the lowercase word as written (for the thesaurus, which is
	// keyed by word: SensesOf).
	Word string
	// Stem is the Porter2 stem, prefixed with NegPrefix when the word is
	// in the scope of a negation.
	Stem string
	// Concept is the lexicon concept of the word ("" if none), negated
	// like the stem.
	Concept string
	// Pos is the word's position among the kept words (function words
	// removed), so a phrase broken by "of the" stays adjacent.
	Pos int
	// Negated: the word is in a negation's scope.
	Negated bool
	// Negator: the word opens a negation ("no", "missing"); its Stem is
	// the word itself. Kept for the lexical index ("citation missing"
	// matches the word "missing"), skipped by the embedder, which has the
	// negated terms.
	Negator bool
}

// NegPrefix marks a negated stem or concept.
const NegPrefix = "!"

// Analyze returns the terms of text in order.
func Analyze(text string) []Term {
	var out []Term
	for _, clause := range clauses(text) {
		out = analyzeClause(clause, out)
	}
	return out
}

// clauses splits text at punctuation that ends a negation's scope.
func clauses(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		switch r {
		case '.', ',', ';', ':', '!', '?', '(', ')', '\n', '—', '–':
			return true
		}
		return false
	})
}

// Scopes: a negator negates the next forwardScope content words of its
// clause ("no source citation"); a trailing negator ("the citation is
// missing") negates the backwardScope content words before it.
const (
	forwardScope  = 3
	backwardScope = 2
)

func analyzeClause(clause string, out []Term) []Term {
	words := Words(clause)
	pos := 0
	if len(out) > 0 {
		pos = out[len(out)-1].Pos + 1
	}
	start := len(out)
	negateNext := 0
	for i, w := range words {
		if negators[w] {
			// "the citation is missing" negates what came before;
			// "missing citation" and "no citation" what follows.
			if trailingNegators[w] && len(out) > start && !out[len(out)-1].Negated && !contentFollows(words[i+1:]) {
				negateBack(out[start:], backwardScope)
			} else {
				negateNext = forwardScope
			}
			out = append(out, Term{Stem: w, Pos: pos, Negator: true})
			pos++
			continue
		}
		if StopWord(w) {
			continue
		}
		t := Term{Word: w, Stem: Stem(w), Concept: ConceptOf(w), Pos: pos}
		pos++
		if negateNext > 0 {
			negateNext--
			t = negate(t)
		}
		out = append(out, t)
	}
	return out
}

// contentFollows reports whether a trailing negator governs what follows
// ("missing a text alternative", "missing citations") rather than what
// came before ("the citation is missing", "missing from the footer"): a
// content word or an article comes next, not a preposition or the end of
// the clause.
func contentFollows(words []string) bool {
	if len(words) == 0 {
		return false
	}
	switch words[0] {
	case "a", "an", "the", "any", "some", "all":
		return true
	}
	return !StopWord(words[0]) && !negators[words[0]]
}

// negateBack negates up to n not yet negated terms at the end of terms.
func negateBack(terms []Term, n int) {
	for i := len(terms) - 1; i >= 0 && n > 0; i-- {
		if terms[i].Negator {
			break
		}
		if !terms[i].Negated {
			terms[i] = negate(terms[i])
		}
		n--
	}
}

func negate(t Term) Term {
	t.Negated = true
	t.Stem = NegPrefix + t.Stem
	if t.Concept != "" {
		t.Concept = NegPrefix + t.Concept
	}
	return t
}

// Words lowercases text and returns its runs of letters and digits
// (apostrophes inside a word kept: "don't").
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r) && r != '\''
	})
}

// negators open a negation scope; trailingNegators also close one over
// the words before them.
var negators = setOf(`no not never without none nor cannot can't don't doesn't didn't isn't aren't wasn't
	weren't won't shouldn't couldn't lacks lack lacking missing absent omits omitted`)

var trailingNegators = setOf(`missing absent lacking omitted`)

// StopWord reports whether w carries no topic: English function words
// plus the generic words of review requests ("please review this ...").
// Negators are not stop words; Analyze handles them.
func StopWord(w string) bool { return stopWords[strings.Trim(w, "'")] }

var stopWords = setOf(`a an the and or but if then else of to in on at by for with about from into over
	under as is are was were be been being am do does did doing have has had having i me my we us our you
	your he she it its they them their this that these those what which who whom whose when where why how
	can could should would will shall may might must so than too very just also there here any some all
	each every more most other such only own same few both again further once s t ok okay please
	let let's i'm it's that's there's we're you're they're i've we've i'd we'd i'll we'll hi hey thanks
	thank yes yeah`)

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
