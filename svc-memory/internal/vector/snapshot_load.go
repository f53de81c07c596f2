package vector

import (
	"bufio"
	"errors"
	"hash/crc32"
	"io"
	"runtime"
	"sync"
	"time"
)

// maxIDBytes bounds the ID blob a snapshot may claim (64 GiB): a damaged
// length must fail as a bad snapshot, not as an attempt to allocate it.
const maxIDBytes = 1 << 36

// load reads a snapshot into the empty index e.
func (e *Embedded) load(src io.Reader) error {
	crc := crc32.New(castagnoli)
	br := bufio.NewReaderSize(src, 1<<20)
	r := &binReader{r: io.TeeReader(br, crc)}
	if string(r.bytes(len(snapshotMagic))) != snapshotMagic || r.u32() != snapshotVersion {
		return badSnapshot(r.err, "not a version %d index snapshot", snapshotVersion)
	}
	dim, m, efC := int(r.u32()), int(r.u32()), int(r.u32())
	taken := r.i64()
	nodes := r.u64()
	if r.err != nil || dim != e.opts.Dim || m < 2 || m > 128 || nodes > 1<<31 {
		return badSnapshot(r.err, "dimension %d, M %d, %d nodes (index dimension %d)", dim, m, nodes, e.opts.Dim)
	}
	st := newStore(dim)
	if err := loadPoints(r, st, int(nodes)); err != nil {
		return err
	}
	if err := loadPostings(r, st); err != nil {
		return err
	}
	g, err := loadGraph(r, st, m, efC)
	if err != nil {
		return err
	}
	sum := crc.Sum32()
	var trailer [4]byte
	if _, err := io.ReadFull(br, trailer[:]); err != nil || trailer != [4]byte(le32(sum)) {
		return badSnapshot(err, "checksum mismatch")
	}
	e.st, e.g = st, g
	e.opts.M, e.opts.EfConstruction = m, efC
	e.loadedAt = time.Unix(0, taken)
	return nil
}

func loadPoints(r *binReader, st *store, nodes int) error {
	for f := range st.dicts {
		count := int(r.u32())
		for i := 0; i < count && r.err == nil; i++ {
			st.dicts[f].intern(r.str())
		}
		if r.err == nil && len(st.dicts[f].strs) != count+1 {
			return badSnapshot(nil, "duplicate dictionary entry")
		}
	}
	if err := loadIDs(r, st, nodes); err != nil {
		return err
	}
	codes := make([]uint32, nodes*numFields)
	created := make([]uint64, nodes)
	r.u32s(codes)
	r.u64s(created)
	st.meta = make([]nodeMeta, nodes)
	st.pos = make([][numFields]int32, nodes)
	st.ws = make([]uint32, nodes)
	for n := range st.meta {
		copy(st.meta[n].fields[:], codes[n*numFields:])
		st.meta[n].created = int64(created[n])
		for f, code := range st.meta[n].fields {
			if int(code) >= len(st.dicts[f].strs) {
				return badSnapshot(nil, "payload code out of range")
			}
			st.pos[n][f] = -1
		}
		st.ws[n] = st.meta[n].fields[fieldWorkspace]
		if st.meta[n].live() {
			st.byID[st.ids[n]] = uint32(n)
			st.live++
		}
	}
	st.grow(nodes)
	for c := 0; c*chunkSize < nodes && r.err == nil; c++ {
		r.u16s(st.chunks[c][:min(chunkSize, nodes-c*chunkSize)*st.dim])
	}
	if r.err != nil {
		return badSnapshot(r.err, "truncated points")
	}
	quantizeAll(st)
	return nil
}

// loadIDs reads the ID lengths and one blob holding every ID; the IDs are
// substrings of a single string (one allocation for a million IDs).
func loadIDs(r *binReader, st *store, nodes int) error {
	lens := make([]uint32, nodes)
	r.u32s(lens)
	total := 0
	for _, l := range lens {
		total += int(l)
	}
	if r.err != nil || total > maxIDBytes {
		return badSnapshot(r.err, "bad ID lengths")
	}
	blob := string(r.bytes(total))
	st.ids = make([]string, nodes)
	st.byID = make(map[string]uint32, nodes)
	off := 0
	for n, l := range lens {
		st.ids[n] = blob[off : off+int(l)]
		off += int(l)
	}
	return nil
}

// quantizeAll recomputes the int8 codes (derived data, not stored) on all
// cores.
func quantizeAll(st *store) {
	n := st.size()
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			buf := make([]float32, st.dim)
			for x := w; x < n; x += workers {
				decodeHalf(buf, st.vec(uint32(x)))
				st.qscale[x], st.qsum[x] = quantize(buf, st.qvec(uint32(x)))
			}
		})
	}
	wg.Wait()
}

// loadPostings reads the saved inverted lists and checks them against the
// payloads: every live node must be in exactly the lists its payload names.
func loadPostings(r *binReader, st *store) error {
	count := int(r.u32())
	entries := 0
	n := uint32(st.size())
	for i := 0; i < count && r.err == nil; i++ {
		k := postingKey{field: r.u8(), ws: r.u32(), val: r.u32()}
		length := r.u32()
		if r.err != nil || k.field >= numFields || length > n {
			return badSnapshot(r.err, "bad posting list header")
		}
		list := make([]uint32, length)
		r.u32s(list)
		for p, x := range list {
			if x >= n || st.keyOf(x, int(k.field)) != k || !st.meta[x].live() || st.pos[x][k.field] != -1 {
				return badSnapshot(nil, "posting list disagrees with payloads")
			}
			st.pos[x][k.field] = int32(p)
		}
		st.postings[k] = list
		entries += len(list)
	}
	if r.err != nil {
		return badSnapshot(r.err, "truncated posting lists")
	}
	want := 0
	for x := range st.meta {
		if st.meta[x].live() {
			for _, code := range st.meta[x].fields {
				if code != 0 {
					want++
				}
			}
		}
	}
	if entries != want {
		return badSnapshot(nil, "posting lists miss nodes")
	}
	return nil
}

func loadGraph(r *binReader, st *store, m, efC int) (*hnsw, error) {
	if r.u8() == 0 {
		return nil, r.err
	}
	n := st.size()
	g := newHNSW(st, m, efC)
	g.grow(n)
	g.entry, g.maxLevel = r.u32(), int(int32(r.u32()))
	copy(g.levels, r.bytes(n))
	r.u32s(g.links0)
	for i := 0; i < n && r.err == nil; i++ {
		if l := int(g.levels[i]); l > 0 {
			if l > maxLevelCap {
				return nil, badSnapshot(nil, "level out of range")
			}
			g.upper[i] = make([]uint32, l*(g.m+1))
			r.u32s(g.upper[i])
		}
	}
	if r.err != nil {
		return nil, badSnapshot(r.err, "truncated graph")
	}
	if err := g.check(); err != nil {
		return nil, badSnapshot(err, "inconsistent graph")
	}
	return g, nil
}

// check validates a loaded graph so a damaged file fails here rather than
// panicking in a search.
func (g *hnsw) check() error {
	n := uint32(len(g.levels))
	if n == 0 || g.entry >= n || g.maxLevel != int(g.levels[g.entry]) {
		return errors.New("bad entry point")
	}
	for x := uint32(0); x < n; x++ {
		for l := 0; l <= int(g.levels[x]); l++ {
			blk := g.list(x, l)
			if int(blk[0]) > len(blk)-1 {
				return errors.New("bad neighbour count")
			}
			for _, y := range blk[1 : 1+blk[0]] {
				if y >= n || int(g.levels[y]) < l {
					return errors.New("bad neighbour")
				}
			}
		}
	}
	return nil
}
