package vector

import (
	"bufio"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Snapshot file layout (little endian), version 2 (1 stored float32
// vectors; such a snapshot is refused and the index rebuilt):
//
//	magic "OCVECIDX", version u32, dim u32, M u32, efConstruction u32,
//	taken (unix ns) i64, nodes u64
//	dictionaries: per payload field, count u32 then strings (u32 length + bytes)
//	IDs: nodes x u32 lengths, then the IDs' bytes back to back
//	payloads: nodes x [8]u32 codes, nodes x i64 createdAt
//	vectors: nodes x dim f16 (IEEE half)
//	posting lists: count u32, then per list field u8, workspace u32,
//	  value u32, length u32, nodes u32...
//	graph flag u8; if 1: entry u32, top level i32, levels [nodes]u8,
//	  layer-0 blocks [nodes*(2M+1)]u32, upper blocks of nodes with level>0
//	CRC-32C of everything above, u32
//
// Bulk arrays are written as they lie in memory, and the posting lists are
// saved rather than rebuilt, so loading is mostly sequential reads.
const (
	snapshotMagic   = "OCVECIDX"
	snapshotVersion = 2
	maxStringLen    = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Snapshot writes the index to Options.SnapshotPath atomically (temporary
// file, fsync, rename). Searches continue meanwhile; writes wait.
func (e *Embedded) Snapshot(ctx context.Context) error {
	if e.opts.SnapshotPath == "" {
		return fmt.Errorf("%w: no snapshot path configured", ErrInvalid)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		return ErrClosed
	}
	return writeAtomically(e.opts.SnapshotPath, e.save)
}

func writeAtomically(path string, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, base+".tmp-*")
	if err != nil {
		return fmt.Errorf("vector: snapshot: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err = write(bw); err != nil {
		return fmt.Errorf("vector: snapshot: %w", err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("vector: snapshot: %w", err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("vector: snapshot: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("vector: snapshot: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("vector: snapshot: %w", err)
	}
	if d, derr := os.Open(dir); derr == nil {
		d.Sync() // make the rename durable; best effort
		d.Close()
	}
	return nil
}

// save streams the index; the caller holds at least the read lock.
func (e *Embedded) save(dst io.Writer) error {
	crc := crc32.New(castagnoli)
	w := &binWriter{w: io.MultiWriter(dst, crc)}
	st := e.st
	w.bytes([]byte(snapshotMagic))
	w.u32(snapshotVersion)
	w.u32(uint32(st.dim))
	w.u32(uint32(e.opts.M))
	w.u32(uint32(e.opts.EfConstruction))
	w.i64(time.Now().UnixNano())
	w.u64(uint64(st.size()))
	for _, d := range st.dicts {
		w.u32(uint32(len(d.strs) - 1))
		for _, s := range d.strs[1:] {
			w.str(s)
		}
	}
	savePoints(w, st)
	for c, chunk := range st.chunks {
		rows := min(chunkSize, st.size()-c*chunkSize)
		if rows <= 0 {
			break
		}
		w.u16s(chunk[:rows*st.dim])
	}
	savePostings(w, st)
	e.saveGraph(w)
	if w.err != nil {
		return w.err
	}
	_, err := dst.Write(le32(crc.Sum32()))
	return err
}

func savePoints(w *binWriter, st *store) {
	n := st.size()
	lens := make([]uint32, n)
	for i, id := range st.ids {
		lens[i] = uint32(len(id))
	}
	w.u32s(lens)
	for _, id := range st.ids {
		w.bytes([]byte(id))
	}
	codes := make([]uint32, 0, n*numFields)
	created := make([]uint64, n)
	for i := range st.meta {
		codes = append(codes, st.meta[i].fields[:]...)
		created[i] = uint64(st.meta[i].created)
	}
	w.u32s(codes)
	w.u64s(created)
}

func savePostings(w *binWriter, st *store) {
	w.u32(uint32(len(st.postings)))
	for k, list := range st.postings {
		w.u8(k.field)
		w.u32(k.ws)
		w.u32(k.val)
		w.u32(uint32(len(list)))
		w.u32s(list)
	}
}

func (e *Embedded) saveGraph(w *binWriter) {
	if e.g == nil {
		w.u8(0)
		return
	}
	g := e.g
	w.u8(1)
	w.u32(g.entry)
	w.u32(uint32(int32(g.maxLevel)))
	n := e.st.size()
	w.bytes(g.levels[:n])
	w.u32s(g.links0[:n*(g.m0+1)])
	for i := 0; i < n; i++ {
		if g.levels[i] > 0 {
			w.u32s(g.upper[i])
		}
	}
}

func badSnapshot(cause error, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if cause != nil {
		return fmt.Errorf("%w: %s: %v", ErrBadSnapshot, msg, cause)
	}
	return fmt.Errorf("%w: %s", ErrBadSnapshot, msg)
}
