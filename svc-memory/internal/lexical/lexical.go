// Package lexical is the keyword leg of svc-memory's hybrid retrieval: an
// in-memory BM25F index over each judgment's review text (decision and
// reasoning) and the reviewed content, with Porter2 stemming, negation-
// aware terms (internal/analysis) and a phrase and proximity boost.
//
// It is held per workspace, so no query can reach another workspace's
// judgments, and applies the same filters as the vector index
// (vector.Filter) inside the search. It keeps no text: it is rebuilt from
// the store of record at start and fed by the same indexing path as the
// vector indexes.
package lexical

import (
	"strconv"
	"sync"

	"github.com/opencollab/backend/svc-memory/internal/analysis"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// Fields of a document.
const (
	FieldReview  = 0 // decision and reasoning
	FieldContent = 1 // the reviewed content
	numFields    = 2
)

// negatedTF is the weight a negated occurrence ("no citation") gives the
// plain term ("citation"): a neutral query about citations still finds it,
// a query for "with citation" prefers the documents that have one.
const negatedTF = 0.6

// Words of one lexicon concept (internal/analysis) also index and query
// the concept as a term of its own, at conceptTF: "medical claim" finds
// "health claim" through the concept, exactly (no hashing collisions), a
// synonym filter as search engines have.
const (
	conceptPrefix = "~"
	conceptTF     = 0.8
)

// With WithThesaurus, the WordNet senses of a word (analysis.SensesOf)
// index and query as terms of their own too, at senseTF times the sense's
// weight: "cost" finds "price" through the concept they share, well below
// the exact word (a word has several senses; 0.4 and 0.8 ranked worse on
// the evaluation set's dev split). Off by default: on the evaluation set
// it did not raise recall (svc-memory/BENCHMARKS.md).
const (
	sensePrefix = "#"
	senseTF     = 0.2
)

// senseTerm is the term of a sense of a word, negated with the word.
func senseTerm(s analysis.Sense, negated bool) string {
	if negated {
		return sensePrefix + analysis.NegPrefix + strconv.FormatUint(uint64(s.ID), 10)
	}
	return sensePrefix + strconv.FormatUint(uint64(s.ID), 10)
}

// sensesFunc returns the thesaurus senses a term indexes and queries,
// nil when the index does not use the thesaurus.
type sensesFunc func(analysis.Term) []analysis.Sense

func (x *Index) senses() sensesFunc {
	if !x.thesaurus {
		return nil
	}
	return func(t analysis.Term) []analysis.Sense {
		if t.Negator {
			return nil
		}
		return analysis.SensesOf(t.Word)
	}
}

// Doc is one judgment to index.
type Doc struct {
	ID      string
	Review  string
	Content string
	Payload vector.Payload
}

// Index is the lexical index of every workspace. Safe for concurrent use.
type Index struct {
	mu        sync.RWMutex
	shards    map[string]*shard
	thesaurus bool
}

// Option configures an Index.
type Option func(*Index)

// WithThesaurus makes the index match words through the WordNet
// thesaurus as well (senseTF).
func WithThesaurus() Option { return func(x *Index) { x.thesaurus = true } }

// New returns an empty index.
func New(opts ...Option) *Index {
	x := &Index{shards: map[string]*shard{}}
	for _, o := range opts {
		o(x)
	}
	return x
}

// Upsert indexes docs, replacing those with the same ID in their workspace.
func (x *Index) Upsert(docs ...Doc) {
	analysed := make([][numFields][]analysis.Term, len(docs))
	for i, d := range docs {
		analysed[i] = [numFields][]analysis.Term{analysis.Analyze(d.Review), analysis.Analyze(d.Content)}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for i, d := range docs {
		sh := x.shards[d.Payload.WorkspaceID]
		if sh == nil {
			sh = newShard()
			x.shards[d.Payload.WorkspaceID] = sh
		}
		sh.upsert(d, analysed[i], x.senses())
	}
}

// Delete removes documents of workspace ws by ID; unknown IDs are ignored.
func (x *Index) Delete(ws string, ids ...string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if sh := x.shards[ws]; sh != nil {
		for _, id := range ids {
			sh.remove(id)
		}
	}
}

// Len is the number of live documents of every workspace.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	n := 0
	for _, sh := range x.shards {
		n += sh.live
	}
	return n
}

// Hit is one search result, best first.
type Hit struct {
	ID      string
	Payload vector.Payload
	// Score is the BM25F score plus the phrase and proximity boost; it is
	// comparable only within one query.
	Score float64
	// Coverage is how much of the evidence the match explains, in [0, 1]:
	// the larger of the IDF share of the query's terms the document has
	// and the IDF share of the document's review terms the query has. A
	// long query containing a short judgment's whole point covers that
	// judgment fully.
	Coverage float64
	// Matched is how many of the query's words the document has (as the
	// word, or a word of the same lexicon concept); Words how many the
	// query has. One shared word is weak evidence however rare it is.
	Matched, Words int
	// Found is how many of the query's words the document has in any
	// field searched (Matched counts the fully weighed ones only).
	Found int
}

// Weights weigh the two fields (BM25F).
type Weights [numFields]float64

// ReviewWeights and ContentWeights are the field weights of a review and
// a content search: a review search reads decision and reasoning, and a
// little of the reviewed content for the ranking (a question often quotes
// the content: "the page says it cures anxiety"); a content search the
// content and a little of what was said about it. Only the fully weighed
// field is evidence (evidenceFields).
var (
	ReviewWeights  = Weights{1, 0.3}
	ContentWeights = Weights{0.3, 1}
)

// Search returns up to limit documents matching f (f.WorkspaceID is
// required) that share a term with the query, best first.
func (x *Index) Search(query string, f vector.Filter, limit int, w Weights) []Hit {
	terms := analysis.Analyze(query)
	if len(terms) == 0 || limit <= 0 {
		return nil
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	sh := x.shards[f.WorkspaceID]
	if sh == nil {
		return nil
	}
	return sh.search(terms, f, limit, w, x.senses())
}
