package vector

// Keyword payload fields, in the order of nodeMeta.fields. Values are
// interned per field to uint32 codes so that filter checks compare
// integers; code 0 is the empty string.
const (
	fieldWorkspace = iota
	fieldOrganization
	fieldDocument
	fieldDecision
	fieldJudgeType
	fieldContentType
	fieldReviewer
	fieldAnnotation
	numFields
)

// chunkShift sizes vector chunks (4096 vectors each): the store grows
// without ever copying the vectors already stored.
const (
	chunkShift = 12
	chunkSize  = 1 << chunkShift
	chunkMask  = chunkSize - 1
)

// dict interns the values of one payload field.
type dict struct {
	codes map[string]uint32
	strs  []string
}

func newDict() *dict {
	return &dict{codes: map[string]uint32{"": 0}, strs: []string{""}}
}

func (d *dict) intern(s string) uint32 {
	if c, ok := d.codes[s]; ok {
		return c
	}
	c := uint32(len(d.strs))
	d.codes[s] = c
	d.strs = append(d.strs, s)
	return c
}

func (d *dict) lookup(s string) (uint32, bool) {
	c, ok := d.codes[s]
	return c, ok
}

// nodeMeta is a node's payload in interned form. A node whose workspace
// code is 0 is a tombstone (deleted or replaced by a newer node).
type nodeMeta struct {
	fields  [numFields]uint32
	created int64
}

func (m *nodeMeta) live() bool { return m.fields[fieldWorkspace] != 0 }

// postingKey names one inverted list: nodes of workspace ws whose field
// has value val. Keys are per workspace so every list is already scoped.
type postingKey struct {
	field uint8
	ws    uint32
	val   uint32
}

// store holds the nodes: external IDs, payloads, normalised vectors (as
// halves, half.go) and the payload inverted indexes. Node numbers are dense and never reused, which
// lets the HNSW graph address vectors by node number.
type store struct {
	dim      int
	dicts    [numFields]*dict
	ids      []string
	byID     map[string]uint32
	meta     []nodeMeta
	pos      [][numFields]int32 // position of the node in each posting list, -1 if none
	chunks   [][]uint16
	postings map[postingKey][]uint32
	live     int
	// ws is each node's workspace code, 0 for a tombstone: the graph walk
	// checks a workspace-only filter here (4 bytes a node, mostly cached)
	// instead of in the node's payload.
	ws []uint32

	// int8 copies of the vectors for the graph (see quant.go).
	qstride int
	qchunks [][]int8
	qscale  []float32
	qsum    []int32
}

func newStore(dim int) *store {
	s := &store{dim: dim, byID: map[string]uint32{}, postings: map[postingKey][]uint32{}, qstride: quantStride(dim)}
	for i := range s.dicts {
		s.dicts[i] = newDict()
	}
	return s
}

func (s *store) size() int { return len(s.ids) }

// vec returns node n's vector in half precision (a view into its chunk).
func (s *store) vec(n uint32) []uint16 {
	off := int(n&chunkMask) * s.dim
	return s.chunks[n>>chunkShift][off : off+s.dim : off+s.dim]
}

// qvec returns node n's int8 codes.
func (s *store) qvec(n uint32) []int8 {
	off := int(n&chunkMask) * s.qstride
	return s.qchunks[n>>chunkShift][off : off+s.qstride : off+s.qstride]
}

// setVec stores node n's (normalised) vector and its int8 codes.
func (s *store) setVec(n uint32, vec []float32) {
	encodeHalf(s.vec(n), vec)
	s.qscale[n], s.qsum[n] = quantize(vec, s.qvec(n))
}

// sameVec reports whether node n holds vec (at half precision).
func (s *store) sameVec(n uint32, vec []float32) bool {
	for i, h := range s.vec(n) {
		if h != toHalf(vec[i]) {
			return false
		}
	}
	return true
}

// grow makes room for nodes [0, n) in the vector chunks and per-node
// arrays.
func (s *store) grow(n int) {
	for len(s.chunks)*chunkSize < n {
		s.chunks = append(s.chunks, make([]uint16, chunkSize*s.dim))
		s.qchunks = append(s.qchunks, make([]int8, chunkSize*s.qstride))
	}
	if have := len(s.qscale); n > have {
		s.qscale = append(s.qscale, make([]float32, n-have)...)
		s.qsum = append(s.qsum, make([]int32, n-have)...)
	}
}

// encode interns a payload.
func (s *store) encode(p Payload) nodeMeta {
	vals := [numFields]string{p.WorkspaceID, p.OrganizationID, p.DocumentID, p.Decision,
		p.JudgeType, p.ContentType, p.ReviewerID, p.AnnotationID}
	var m nodeMeta
	for f, v := range vals {
		m.fields[f] = s.dicts[f].intern(v)
	}
	m.created = p.CreatedAt
	return m
}

// decode turns node n's interned payload back into strings.
func (s *store) decode(n uint32) Payload {
	m := &s.meta[n]
	str := func(f int) string { return s.dicts[f].strs[m.fields[f]] }
	return Payload{
		WorkspaceID: str(fieldWorkspace), OrganizationID: str(fieldOrganization),
		DocumentID: str(fieldDocument), Decision: str(fieldDecision),
		JudgeType: str(fieldJudgeType), ContentType: str(fieldContentType),
		ReviewerID: str(fieldReviewer), AnnotationID: str(fieldAnnotation),
		CreatedAt: m.created,
	}
}

// add appends a new live node and returns its number. vec must already be
// normalised; it is copied.
func (s *store) add(id string, vec []float32, m nodeMeta) uint32 {
	n := uint32(len(s.ids))
	s.grow(int(n) + 1)
	s.setVec(n, vec)
	s.ids = append(s.ids, id)
	s.meta = append(s.meta, nodeMeta{})
	s.ws = append(s.ws, 0)
	s.pos = append(s.pos, [numFields]int32{})
	s.byID[id] = n
	s.setMeta(n, m)
	return n
}

// setMeta replaces node n's payload, moving it between posting lists.
// A zero meta (workspace code 0) turns the node into a tombstone.
func (s *store) setMeta(n uint32, m nodeMeta) {
	if s.meta[n].live() {
		s.unindex(n)
		s.live--
	}
	s.meta[n] = m
	s.ws[n] = m.fields[fieldWorkspace]
	for f := range s.pos[n] {
		s.pos[n][f] = -1
	}
	if m.live() {
		s.index(n)
		s.live++
	}
}

// remove tombstones node n and forgets its external ID.
func (s *store) remove(n uint32) {
	if s.byID[s.ids[n]] == n {
		delete(s.byID, s.ids[n])
	}
	s.setMeta(n, nodeMeta{created: s.meta[n].created})
}

func (s *store) keyOf(n uint32, f int) postingKey {
	m := &s.meta[n]
	return postingKey{field: uint8(f), ws: m.fields[fieldWorkspace], val: m.fields[f]}
}

func (s *store) index(n uint32) {
	for f := 0; f < numFields; f++ {
		if s.meta[n].fields[f] == 0 {
			continue
		}
		k := s.keyOf(n, f)
		s.pos[n][f] = int32(len(s.postings[k]))
		s.postings[k] = append(s.postings[k], n)
	}
}

// unindex removes n from its posting lists in O(1) each: the last entry
// takes its place.
func (s *store) unindex(n uint32) {
	for f := 0; f < numFields; f++ {
		p := s.pos[n][f]
		if p < 0 {
			continue
		}
		k := s.keyOf(n, f)
		list := s.postings[k]
		last := list[len(list)-1]
		list[p] = last
		s.pos[last][f] = p
		list = list[:len(list)-1]
		if len(list) == 0 {
			delete(s.postings, k)
		} else {
			s.postings[k] = list
		}
		s.pos[n][f] = -1
	}
}

// posting returns the nodes of workspace ws whose field f has code val.
func (s *store) posting(f int, ws, val uint32) []uint32 {
	return s.postings[postingKey{field: uint8(f), ws: ws, val: val}]
}
