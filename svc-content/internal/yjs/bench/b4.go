package main

import (
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// trace is the editing trace: [position, deleted, inserted] per edit.
type trace struct {
	Edits     [][3]any `json:"edits"`
	FinalText string   `json:"finalText"`
	edits     []edit
}

type edit struct {
	pos, del int
	ins      string
}

func loadTrace(path string) (*trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var tr trace
	if err := json.Unmarshal(raw, &tr); err != nil {
		return nil, err
	}
	for _, e := range tr.Edits {
		tr.edits = append(tr.edits, edit{pos: int(e[0].(float64)), del: int(e[1].(float64)), ins: e[2].(string)})
	}
	return &tr, nil
}

// result holds what one engine measured.
type result struct {
	EditMs      float64 `json:"editMs"`
	EncodeMs    float64 `json:"encodeMs"`
	ParseMs     float64 `json:"parseMs"`
	RemoteMs    float64 `json:"remoteMs"`
	UpdateBytes int     `json:"updateBytes"`
	DocSize     int     `json:"docSize"`
	EditedMem   int64   `json:"editedMem"`
	LoadedMem   int64   `json:"loadedMem"`
	Version     string  `json:"version"`
	Node        string  `json:"node"`
}

func heap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func runGo(tr *trace, runs int) (*result, error) {
	var all []result
	for range runs {
		r, err := runGoOnce(tr)
		if err != nil {
			return nil, err
		}
		all = append(all, r)
	}
	last := all[len(all)-1]
	last.EditMs = median(all, func(r result) float64 { return r.EditMs })
	last.EncodeMs = median(all, func(r result) float64 { return r.EncodeMs })
	last.ParseMs = median(all, func(r result) float64 { return r.ParseMs })
	last.RemoteMs = median(all, func(r result) float64 { return r.RemoteMs })
	last.Version = runtime.Version()
	return &last, nil
}

func median(rs []result, f func(result) float64) float64 {
	xs := make([]float64, len(rs))
	for i, r := range rs {
		xs[i] = f(r)
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}

func runGoOnce(tr *trace) (result, error) {
	var r result
	base := heap()
	doc := yjs.NewDoc(1)
	text := doc.Text("text")
	// every transaction's update, as a server would send them, kept in
	// one flat buffer (subtracted from the measured heap)
	var flat []byte
	ends := make([]int, 0, 2*len(tr.edits))
	keep := func(u []byte) {
		if u != nil {
			flat = append(flat, u...)
			ends = append(ends, len(flat))
		}
	}
	start := time.Now()
	for _, e := range tr.edits {
		u, err := doc.Transact(func(tx *yjs.Tx) error {
			if e.del > 0 {
				return text.Delete(tx, e.pos, e.del)
			}
			return nil
		})
		if err != nil {
			return r, err
		}
		r.UpdateBytes += len(u)
		keep(u)
		if e.ins == "" {
			continue
		}
		if u, err = doc.Transact(func(tx *yjs.Tx) error { return text.Insert(tx, e.pos, e.ins, nil) }); err != nil {
			return r, err
		}
		r.UpdateBytes += len(u)
		keep(u)
	}
	r.EditMs = ms(time.Since(start))
	if text.String() != tr.FinalText {
		return r, errors.New("go: final text differs")
	}
	r.EditedMem = heap() - base - int64(cap(flat)) - int64(cap(ends))*8
	start = time.Now()
	state, err := doc.EncodeStateAsUpdate(nil)
	if err != nil {
		return r, err
	}
	r.EncodeMs = ms(time.Since(start))
	r.DocSize = len(state)
	runtime.KeepAlive(doc)
	doc, text = nil, nil
	base = heap()
	start = time.Now()
	loaded := yjs.NewDoc(2)
	if err := loaded.ApplyUpdate(state); err != nil {
		return r, err
	}
	r.ParseMs = ms(time.Since(start))
	if loaded.Text("text").String() != tr.FinalText {
		return r, errors.New("go: loaded text differs")
	}
	state = nil
	r.LoadedMem = heap() - base
	runtime.KeepAlive(loaded)
	loaded = nil
	// a peer (a sync server) receiving every update
	start = time.Now()
	peer := yjs.NewDoc(3)
	for i, from := 0, 0; i < len(ends); from, i = ends[i], i+1 {
		if err := peer.ApplyUpdate(flat[from:ends[i]]); err != nil {
			return r, err
		}
	}
	r.RemoteMs = ms(time.Since(start))
	if peer.Text("text").String() != tr.FinalText {
		return r, errors.New("go: peer text differs")
	}
	return r, nil
}
