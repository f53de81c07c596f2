package embed

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opencollab/backend/svc-memory/internal/analysis"
)

// DefaultDim is the vector length of the hashing embedder when none is given.
const DefaultDim = 256

// Feature weights. Text is analysed as the lexical index does it
// (internal/analysis: function words dropped, Porter2 stems, negation
// scope): stems carry the meaning; the concept of a word in the built-in
// lexicon lets near-synonyms meet ("health claim" ~ "medical claim");
// bigrams of adjacent stems add a little word order; character trigrams of
// the stems let typos ("aproved") land near the word. A negated stem
// ("no citation") is its own feature and keeps a little of the plain one.
const (
	stemWeight    = 1.0
	conceptWeight = 0.8
	negatedPlain  = 0.3
	bigramWeight  = 0.5
	trigramWeight = 0.25
)

// HashingModel names the vectors of this embedder (the index keeps one
// collection or snapshot per model). Changing features or weights must
// change it, so indexes built with the old vectors are rebuilt.
const HashingModel = "builtin-hash-v2"

// Namespaces keep features with the same bytes from colliding on purpose.
const (
	nsUnigram byte = 'w'
	nsBigram  byte = 'b'
	nsTrigram byte = 't'
	nsConcept byte = 'c'
)

// Hashing is the deterministic feature-hashing embedder: the same text gives
// the same vector in every process and release, so an index built by one
// instance is valid for all (and rebuilding needs no model download).
type Hashing struct {
	dim int
}

// NewHashing returns a hashing embedder with vectors of length dim
// (DefaultDim when dim <= 0).
func NewHashing(dim int) *Hashing {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Hashing{dim: dim}
}

// Dim implements Embedder.
func (h *Hashing) Dim() int { return h.dim }

// Model implements Embedder.
func (h *Hashing) Model() string { return HashingModel }

// Embed implements Embedder. It never fails except on a cancelled context.
func (h *Hashing) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = h.embedOne(text)
	}
	return out, nil
}

// embedOne adds the features of the analysed text and L2-normalises. A
// text of function words only ("what is it") falls back to its plain
// words: better than the zero vector.
func (h *Hashing) embedOne(text string) []float32 {
	v := make([]float32, h.dim)
	terms := analysis.Analyze(text)
	if len(terms) == 0 {
		for i, w := range tokenize(text) {
			terms = append(terms, analysis.Term{Stem: w, Pos: i})
		}
	}
	for i, t := range terms {
		if t.Negator {
			continue // the negated terms carry the negation
		}
		plain := strings.TrimPrefix(t.Stem, analysis.NegPrefix)
		h.add(v, hashFeature(nsUnigram, t.Stem, ""), stemWeight)
		if t.Negated {
			h.add(v, hashFeature(nsUnigram, plain, ""), negatedPlain)
		}
		if t.Concept != "" {
			h.add(v, hashFeature(nsConcept, t.Concept, ""), conceptWeight)
		}
		if i > 0 && terms[i-1].Pos == t.Pos-1 {
			h.add(v, hashFeature(nsBigram, terms[i-1].Stem, t.Stem), bigramWeight)
		}
		h.addTrigrams(v, plain)
	}
	normalize(v)
	return v
}

// addTrigrams adds the character trigrams of "<word>" (rune based, so
// non-Latin scripts work); a one-letter word still yields "<a>".
func (h *Hashing) addTrigrams(v []float32, word string) {
	var buf [64]byte
	marked := append(append(append(buf[:0], '<'), word...), '>')
	// Offsets of the rune starts, so trigrams never split a rune.
	var starts [32]int
	idx := starts[:0]
	for off := 0; off < len(marked); {
		idx = append(idx, off)
		_, size := utf8.DecodeRune(marked[off:])
		off += size
	}
	idx = append(idx, len(marked))
	for i := 0; i+3 < len(idx); i++ {
		gram := marked[idx[i]:idx[i+3]]
		h.add(v, hashBytes(nsTrigram, gram), trigramWeight)
	}
}

// add puts weight w into the bucket picked by the low bits of sum, with the
// sign taken from the top bit so unrelated collisions cancel on average.
func (h *Hashing) add(v []float32, sum uint64, w float32) {
	bucket := (sum & 0xffffffff) % uint64(h.dim)
	if sum>>63 == 1 {
		w = -w
	}
	v[bucket] += w
}

// tokenize lowercases text and returns its maximal runs of letters and
// digits.
func tokenize(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r)
	})
}

// FNV-1a, 64 bit: simple, fast, and fixed forever (changing it would
// silently invalidate every persisted index).
const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func hashFeature(ns byte, a, b string) uint64 {
	sum := (fnvOffset ^ uint64(ns)) * fnvPrime
	for i := 0; i < len(a); i++ {
		sum = (sum ^ uint64(a[i])) * fnvPrime
	}
	if b != "" {
		sum = (sum ^ ' ') * fnvPrime
		for i := 0; i < len(b); i++ {
			sum = (sum ^ uint64(b[i])) * fnvPrime
		}
	}
	return mix(sum)
}

func hashBytes(ns byte, p []byte) uint64 {
	sum := (fnvOffset ^ uint64(ns)) * fnvPrime
	for _, c := range p {
		sum = (sum ^ uint64(c)) * fnvPrime
	}
	return mix(sum)
}

// mix is a final avalanche step (murmur3 fmix64): FNV's high bit, used for
// the sign, is poorly mixed for short inputs on its own.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
