package yjs_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// The differential test: tools/yjscheck/difftrace.mjs makes random
// editing traces with stock yjs (several clients editing concurrently and
// syncing), recording every update yjs produced. Go replays each trace
// with its own documents and must produce the same bytes at every step:
// each local transaction's update, each state update sent between peers,
// the updates a peer emits when it applies one, the final states and
// contents; then the same updates delivered in shuffled orders (pending
// structs and deletes), and MergeUpdates / DiffUpdate /
// EncodeStateVectorFromUpdate on them.

type wireTrace struct {
	Seed     int64         `json:"seed"`
	IDs      []uint64      `json:"ids"`
	GC       bool          `json:"gc"`
	Steps    []wireStep    `json:"steps"`
	Local    []string      `json:"local"`
	Final    []wireState   `json:"final"`
	Shuffles []wireOrder   `json:"shuffles"`
	Ops      wireStateless `json:"ops"`
}

type wireStep struct {
	K       string            `json:"k"`
	C       int               `json:"c"`
	Acts    []json.RawMessage `json:"acts"`
	U       *string           `json:"u"`
	From    int               `json:"from"`
	To      int               `json:"to"`
	Emitted []string          `json:"emitted"`
}

type wireState struct {
	SV      string          `json:"sv"`
	State   string          `json:"state"`
	Content json.RawMessage `json:"content"`
}

type wireOrder struct {
	Order  []int     `json:"order"`
	Mid    int       `json:"mid"`
	MidRec wireState `json:"midRec"`
	wireState
}

type wireStateless struct {
	MergeOrder   []int   `json:"mergeOrder"`
	Merged       *string `json:"merged"`
	Subset       []int   `json:"subset"`
	MergedSubset *string `json:"mergedSubset"`
	DiffSV       string  `json:"diffSv"`
	Diff         *string `json:"diff"`
	DiffSubset   *string `json:"diffSubset"`
	SVFromUpdate *string `json:"svFromUpdate"`
	SVFromSubset *string `json:"svFromSubset"`
}

func TestDifferentialTraces(t *testing.T) {
	t.Parallel()
	outs, want := generateTraces(t)
	if t.Failed() {
		return
	}
	n := 0
	for _, out := range outs {
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var tr wireTrace
			if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
				t.Fatalf("trace %d: %v", n, err)
			}
			n++
			t.Run(strconv.FormatInt(tr.Seed, 10), func(t *testing.T) {
				t.Parallel()
				replayAll(t, &tr)
			})
		}
	}
	if n != want {
		t.Fatalf("got %d traces, want %d", n, want)
	}
}

// replayAll runs every check of one trace.
func replayAll(t *testing.T, tr *wireTrace) {
	replayTrace(t, tr)
	replayShuffles(t, tr)
	checkStateless(t, tr)
}

func b64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func b64p(t *testing.T, s *string) []byte {
	if s == nil {
		return nil
	}
	return b64(t, *s)
}

func sameBytes(t *testing.T, what string, got, want []byte) bool {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from yjs\n got %x\nwant %x", what, got, want)
		return false
	}
	return true
}

// replayTrace runs the steps on Go documents.
func replayTrace(t *testing.T, tr *wireTrace) {
	docs := make([]*yjs.Doc, len(tr.IDs))
	emitted := make([][][]byte, len(docs))
	for i, id := range tr.IDs {
		docs[i] = yjs.NewDoc(id)
		docs[i].SetGC(tr.GC)
		docs[i].OnUpdate(func(u []byte) { emitted[i] = append(emitted[i], u) })
	}
	for si, s := range tr.Steps {
		switch s.K {
		case "e":
			d := docs[s.C]
			u, err := d.Transact(func(tx *yjs.Tx) error {
				for _, a := range s.Acts {
					if err := applyAction(tx, d, a); err != nil {
						return fmt.Errorf("%s: %w", a, err)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatalf("step %d: %v", si, err)
			}
			if !sameBytes(t, fmt.Sprintf("step %d (client %d, %s) update", si, s.C, s.Acts), u, b64p(t, s.U)) {
				return
			}
		case "s":
			u, err := docs[s.From].EncodeStateAsUpdate(docs[s.To].StateVector())
			if err != nil {
				t.Fatalf("step %d: %v", si, err)
			}
			if !sameBytes(t, fmt.Sprintf("step %d sync %d->%d update", si, s.From, s.To), u, b64p(t, s.U)) {
				return
			}
			emitted[s.To] = nil
			if err := docs[s.To].ApplyUpdate(u); err != nil {
				t.Fatalf("step %d: apply: %v", si, err)
			}
			if len(emitted[s.To]) != len(s.Emitted) {
				t.Errorf("step %d: applying emitted %d updates, yjs %d\n go  %x\n yjs %q", si, len(emitted[s.To]), len(s.Emitted), emitted[s.To], s.Emitted)
				return
			}
			for i := range s.Emitted {
				if !sameBytes(t, fmt.Sprintf("step %d emitted update %d", si, i), emitted[s.To][i], b64(t, s.Emitted[i])) {
					return
				}
			}
		}
	}
	for i, f := range tr.Final {
		checkState(t, fmt.Sprintf("client %d final", i), docs[i], f)
	}
}

// replayShuffles delivers the local updates in yjs's shuffled orders.
func replayShuffles(t *testing.T, tr *wireTrace) {
	for si, sh := range tr.Shuffles {
		d := yjs.NewDoc(0)
		d.SetGC(tr.GC)
		for i, idx := range sh.Order {
			if i == sh.Mid {
				checkState(t, fmt.Sprintf("shuffle %d after %d updates", si, i), d, sh.MidRec)
			}
			if err := d.ApplyUpdate(b64(t, tr.Local[idx])); err != nil {
				t.Fatalf("shuffle %d: %v", si, err)
			}
		}
		if sh.Mid >= len(sh.Order) {
			checkState(t, fmt.Sprintf("shuffle %d mid", si), d, sh.MidRec)
		}
		checkState(t, fmt.Sprintf("shuffle %d", si), d, sh.wireState)
	}
}

func checkState(t *testing.T, what string, d *yjs.Doc, want wireState) {
	t.Helper()
	sameBytes(t, what+" state vector", d.StateVector(), b64(t, want.SV))
	state, err := d.EncodeStateAsUpdate(nil)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	sameBytes(t, what+" state", state, b64(t, want.State))
	var wantContent, gotContent any
	if err := json.Unmarshal(want.Content, &wantContent); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(content(d))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &gotContent); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotContent, wantContent) {
		t.Errorf("%s content differs from yjs\n got %s\nwant %s", what, raw, want.Content)
	}
}

func checkStateless(t *testing.T, tr *wireTrace) {
	local := make([][]byte, len(tr.Local))
	for i, u := range tr.Local {
		local[i] = b64(t, u)
	}
	pickUpdates := func(order []int) [][]byte {
		out := make([][]byte, len(order))
		for i, idx := range order {
			out[i] = local[idx]
		}
		return out
	}
	ops := tr.Ops
	check := func(what string, got []byte, err error, want *string) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		sameBytes(t, what, got, b64p(t, want))
	}
	if ops.Merged != nil {
		merged, err := yjs.MergeUpdates(pickUpdates(ops.MergeOrder)...)
		check("MergeUpdates", merged, err, ops.Merged)
		diff, err := yjs.DiffUpdate(b64(t, *ops.Merged), b64(t, ops.DiffSV))
		check("DiffUpdate", diff, err, ops.Diff)
		sv, err := yjs.EncodeStateVectorFromUpdate(b64(t, *ops.Merged))
		check("EncodeStateVectorFromUpdate", sv, err, ops.SVFromUpdate)
	}
	if ops.MergedSubset != nil {
		merged, err := yjs.MergeUpdates(pickUpdates(ops.Subset)...)
		check("MergeUpdates of a subset", merged, err, ops.MergedSubset)
		diff, err := yjs.DiffUpdate(b64(t, *ops.MergedSubset), b64(t, ops.DiffSV))
		check("DiffUpdate of a subset", diff, err, ops.DiffSubset)
		sv, err := yjs.EncodeStateVectorFromUpdate(b64(t, *ops.MergedSubset))
		check("EncodeStateVectorFromUpdate of a subset", sv, err, ops.SVFromSubset)
	}
}
