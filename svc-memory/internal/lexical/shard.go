package lexical

import (
	"slices"

	"github.com/opencollab/backend/svc-memory/internal/analysis"
	"github.com/opencollab/backend/svc-memory/internal/vector"
)

// posting is one field of one document containing a term; its positions
// are pos[off : off+n] of the shard's position arena.
type posting struct {
	doc   uint32
	off   uint32
	n     uint16
	field uint8
	tf    float32
}

type doc struct {
	id      string
	payload vector.Payload
	live    bool
	length  [numFields]float32
	// terms are the document's distinct review-field term ids (for the
	// document side of Coverage).
	terms []uint32
}

// shard is one workspace's index. Document numbers are never reused; a
// replaced or deleted document is dead until compaction drops its
// postings.
type shard struct {
	docs     []doc
	byID     map[string]uint32
	termIDs  map[string]uint32
	postings [][]posting // by term id
	pos      []int32
	live     int
	dead     int
	totalLen [numFields]float64
}

func newShard() *shard {
	return &shard{byID: map[string]uint32{}, termIDs: map[string]uint32{}}
}

func (s *shard) termID(t string) uint32 {
	id, ok := s.termIDs[t]
	if !ok {
		id = uint32(len(s.postings))
		s.termIDs[t] = id
		s.postings = append(s.postings, nil)
	}
	return id
}

// occurrence collects one term's positions and weight in one field.
type occurrence struct {
	tf  float32
	pos []int32
}

func (s *shard) upsert(d Doc, fields [numFields][]analysis.Term, senses sensesFunc) {
	s.remove(d.ID)
	n := uint32(len(s.docs))
	nd := doc{id: d.ID, payload: d.Payload, live: true}
	for f, terms := range fields {
		occ := map[string]*occurrence{}
		primary := map[string]bool{}
		add := func(term string, tf float32, p int) {
			o := occ[term]
			if o == nil {
				o = &occurrence{}
				occ[term] = o
			}
			o.tf += tf
			o.pos = append(o.pos, int32(p))
		}
		for _, t := range terms {
			add(t.Stem, 1, t.Pos)
			primary[t.Stem] = true
			if t.Negated {
				add(t.Stem[len(analysis.NegPrefix):], negatedTF, t.Pos)
			}
			if t.Concept != "" {
				add(conceptPrefix+t.Concept, conceptTF, t.Pos)
			}
			if senses == nil {
				continue
			}
			for _, sn := range senses(t) {
				add(senseTerm(sn, t.Negated), senseTF*sn.Weight, t.Pos)
			}
		}
		nd.length[f] = float32(len(terms))
		s.totalLen[f] += float64(len(terms))
		for term, o := range occ {
			id := s.termID(term)
			s.postings[id] = append(s.postings[id], posting{doc: n, off: uint32(len(s.pos)),
				n: uint16(min(len(o.pos), 1<<16-1)), field: uint8(f), tf: o.tf})
			s.pos = append(s.pos, o.pos[:min(len(o.pos), 1<<16-1)]...)
			if f == FieldReview && primary[term] {
				nd.terms = append(nd.terms, id)
			}
		}
	}
	slices.Sort(nd.terms)
	s.docs = append(s.docs, nd)
	s.byID[d.ID] = n
	s.live++
}

func (s *shard) remove(id string) {
	n, ok := s.byID[id]
	if !ok {
		return
	}
	delete(s.byID, id)
	d := &s.docs[n]
	d.live = false
	for f := range d.length {
		s.totalLen[f] -= float64(d.length[f])
	}
	s.live--
	s.dead++
	if s.dead > 1024 && s.dead > s.live {
		s.compact()
	}
}

// compact drops the postings of dead documents and rewrites the position
// arena without them.
func (s *shard) compact() {
	var pos []int32
	for t, list := range s.postings {
		kept := list[:0]
		for _, p := range list {
			if !s.docs[p.doc].live {
				continue
			}
			off := uint32(len(pos))
			pos = append(pos, s.pos[p.off:p.off+uint32(p.n)]...)
			p.off = off
			kept = append(kept, p)
		}
		s.postings[t] = slices.Clip(kept)
	}
	for i := range s.docs {
		if !s.docs[i].live {
			s.docs[i] = doc{}
		}
	}
	s.pos, s.dead = pos, 0
}

func (s *shard) positions(p posting) []int32 { return s.pos[p.off : p.off+uint32(p.n)] }
