package yjs_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strconv"
	"sync"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
	"github.com/opencollab/backend/svc-content/internal/yjs/yjstest"
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

// traceBatches is how many node processes generate traces, tracesPerBatch
// how many each generates.
// YJS_TRACES overrides tracesPerBatch (for longer local runs).
const (
	traceBatches   = 2
	tracesPerBatch = 1000
)

func tracesWanted() int {
	if n, err := strconv.Atoi(os.Getenv("YJS_TRACES")); err == nil && n > 0 {
		return n
	}
	return tracesPerBatch
}

type wireTrace struct {
	Seed     int64         `json:"seed"`
	IDs      []uint64      `json:"ids"`
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
	var wg sync.WaitGroup
	outs := make([][]byte, traceBatches)
	for i := range traceBatches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = yjstest.Run(t, "difftrace.mjs", nil, strconv.Itoa(i+1), strconv.Itoa(tracesWanted()))
		}()
	}
	wg.Wait()
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
				replayTrace(t, &tr)
				replayShuffles(t, &tr)
				checkStateless(t, &tr)
			})
		}
	}
	if n != traceBatches*tracesWanted() {
		t.Fatalf("got %d traces, want %d", n, traceBatches*tracesWanted())
	}
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
				t.Errorf("step %d: applying emitted %d updates, yjs %d", si, len(emitted[s.To]), len(s.Emitted))
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

// content is difftrace.mjs's content(doc) in Go.
func content(d *yjs.Doc) any {
	return map[string]any{
		"text":  map[string]any{"str": d.Text("text").String(), "delta": canon(d.Text("text").Delta())},
		"map":   canon(d.Map("map").ToJSON()),
		"array": canon(d.Array("array").ToJSON()),
		"xml":   d.XmlFragment("xml").ToString(),
	}
}

// canon is difftrace.mjs's canon: shared types as their JSON, bytes as
// {"$bytes": [...]}.
func canon(v any) any {
	switch t := v.(type) {
	case []byte:
		out := make([]any, len(t))
		for i, b := range t {
			out[i] = float64(b)
		}
		return map[string]any{"$bytes": out}
	case interface{ ToJSON() any }:
		return canon(t.ToJSON())
	case []yjs.Delta:
		out := make([]any, len(t))
		for i, d := range t {
			op := map[string]any{"insert": canon(d.Insert)}
			if d.Attributes != nil {
				op["attributes"] = canon(d.Attributes)
			}
			out[i] = op
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = canon(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = canon(x)
		}
		return out
	}
	return v
}

// fromWire turns {"$bytes": [...]} into []byte, keeping objects ordered.
func fromWire(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = fromWire(x)
		}
		return out
	case lib0.Object:
		if bs, ok := t.Get("$bytes"); ok {
			arr := bs.([]any)
			out := make([]byte, len(arr))
			for i, x := range arr {
				out[i] = byte(x.(float64))
			}
			return out
		}
		out := make(lib0.Object, len(t))
		for i, f := range t {
			out[i] = lib0.Field{Key: f.Key, Value: fromWire(f.Value)}
		}
		return out
	}
	return v
}

func attrsArg(v any) map[string]any {
	o, ok := v.(lib0.Object)
	if !ok {
		return nil
	}
	m := map[string]any{}
	for _, f := range o {
		m[f.Key] = fromWire(f.Value)
	}
	return m
}

func newType(kind string, init any) any {
	init = fromWire(init)
	switch kind {
	case "text":
		return yjs.NewText(init.(string))
	case "array":
		return yjs.NewArray(init.([]any)...)
	}
	entries := map[string]any{}
	for _, f := range init.(lib0.Object) {
		entries[f.Key] = f.Value
	}
	return yjs.NewMap(entries)
}

// resolve follows a path from a root to a nested type.
func resolve(d *yjs.Doc, path []any) any {
	var cur any
	switch path[0] {
	case "text":
		cur = d.Text("text")
	case "map":
		cur = d.Map("map")
	case "array":
		cur = d.Array("array")
	default:
		cur = d.XmlFragment("xml")
	}
	for _, step := range path[1:] {
		switch c := cur.(type) {
		case *yjs.Map:
			cur, _ = c.Get(step.(string))
		case *yjs.Array:
			cur, _ = c.Get(int(step.(float64)))
		case *yjs.XmlFragment:
			cur, _ = c.Get(int(step.(float64)))
		case *yjs.XmlElement:
			cur, _ = c.Get(int(step.(float64)))
		}
	}
	return cur
}

// textLike is what Text and XmlText share.
type textLike interface {
	Insert(tx *yjs.Tx, index int, s string, attrs map[string]any) error
	InsertEmbed(tx *yjs.Tx, index int, v any, attrs map[string]any) error
	Delete(tx *yjs.Tx, index, n int) error
	Format(tx *yjs.Tx, index, n int, attrs map[string]any) error
}

// xmlLike is what XmlFragment and XmlElement share.
type xmlLike interface {
	Insert(tx *yjs.Tx, index int, nodes ...any) error
	InsertElement(tx *yjs.Tx, index int, name string) (*yjs.XmlElement, error)
	Delete(tx *yjs.Tx, index, n int) error
}

func num(v any) int { return int(v.(float64)) }

// applyAction is difftrace.mjs's apply in Go.
func applyAction(tx *yjs.Tx, d *yjs.Doc, raw json.RawMessage) error {
	v, err := lib0.ParseJSON(string(raw))
	if err != nil {
		return err
	}
	act := v.([]any)
	op, a := act[0].(string), act[2:]
	// difftrace.mjs reads every root before it picks an action, which types
	// roots that updates created untyped (and resets their markers).
	d.Text("text")
	d.Map("map")
	d.Array("array")
	d.XmlFragment("xml")
	target := resolve(d, act[1].([]any))
	switch op {
	case "ti":
		return target.(textLike).Insert(tx, num(a[0]), a[1].(string), attrsArg(a[2]))
	case "te":
		return target.(textLike).InsertEmbed(tx, num(a[0]), fromWire(a[1]), attrsArg(a[2]))
	case "td":
		return target.(textLike).Delete(tx, num(a[0]), num(a[1]))
	case "tf":
		return target.(textLike).Format(tx, num(a[0]), num(a[1]), attrsArg(a[2]))
	case "ms":
		return target.(*yjs.Map).Set(tx, a[0].(string), fromWire(a[1]))
	case "mt":
		return target.(*yjs.Map).Set(tx, a[0].(string), newType(a[1].(string), a[2]))
	case "md":
		return target.(*yjs.Map).Delete(tx, a[0].(string))
	case "ai":
		return target.(*yjs.Array).Insert(tx, num(a[0]), fromWire(a[1]).([]any)...)
	case "ap":
		return target.(*yjs.Array).Push(tx, fromWire(a[0]).([]any)...)
	case "at":
		return target.(*yjs.Array).Insert(tx, num(a[0]), newType(a[1].(string), a[2]))
	case "ad":
		return target.(*yjs.Array).Delete(tx, num(a[0]), num(a[1]))
	case "xe":
		_, err := target.(xmlLike).InsertElement(tx, num(a[0]), a[1].(string))
		return err
	case "xt":
		node := yjs.NewXmlText()
		if s := a[1].(string); s != "" {
			node = yjs.NewXmlText(yjs.Delta{Insert: s})
		}
		return target.(xmlLike).Insert(tx, num(a[0]), node)
	case "xd":
		return target.(xmlLike).Delete(tx, num(a[0]), num(a[1]))
	case "xa":
		return target.(*yjs.XmlElement).SetAttribute(tx, a[0].(string), fromWire(a[1]))
	case "xr":
		return target.(*yjs.XmlElement).RemoveAttribute(tx, a[0].(string))
	}
	return fmt.Errorf("unknown action %s", op)
}
