package yjs_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/yjstest"
)

// The reverse direction: Go documents make random edits through the API
// and sync among themselves; stock yjs (tools/yjscheck/applyupdates.mjs)
// applies the local updates Go produced, in generation order and shuffled,
// and must read the content the Go peers converged to, with the same state
// vector and, for the same order, the same encoded state as Go.

const goTraces = 400

type goEditor struct {
	rnd  *rand.Rand
	docs []*yjs.Doc
}

func TestGoEditsApplyInYjs(t *testing.T) {
	t.Parallel()
	type job struct {
		Updates []string `json:"updates"`
		Orders  [][]int  `json:"orders"`
	}
	var in bytes.Buffer
	type expect struct {
		seed    uint64
		content any
		states  [][]byte // per order, Go's encoded state
		svs     [][]byte
	}
	var expects []expect
	for seed := uint64(1); seed <= goTraces; seed++ {
		local, want := runGoEdits(t, seed)
		rnd := rand.New(rand.NewPCG(seed, 99))
		orders := [][]int{identity(len(local)), rnd.Perm(len(local)), rnd.Perm(len(local))}
		j := job{Orders: orders}
		for _, u := range local {
			j.Updates = append(j.Updates, base64.StdEncoding.EncodeToString(u))
		}
		e := expect{seed: seed, content: want}
		for _, order := range orders {
			d := yjs.NewDoc(0)
			for _, i := range order {
				if err := d.ApplyUpdate(local[i]); err != nil {
					t.Fatal(err)
				}
			}
			state, _ := d.EncodeStateAsUpdate(nil)
			e.states = append(e.states, state)
			e.svs = append(e.svs, d.StateVector())
			if got := jsonRoundTrip(t, content(d)); !reflect.DeepEqual(got, want) {
				t.Fatalf("seed %d: a Go peer applying the updates reads differently:\n%v\n%v", seed, got, want)
			}
		}
		line, _ := json.Marshal(j)
		in.Write(append(line, '\n'))
		expects = append(expects, e)
	}
	out := yjstest.Run(t, "applyupdates.mjs", in.Bytes())
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	n := 0
	for ; sc.Scan(); n++ {
		var got struct {
			Results []struct {
				SV      string          `json:"sv"`
				State   string          `json:"state"`
				Content json.RawMessage `json:"content"`
				Pending bool            `json:"pending"`
			} `json:"results"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		e := expects[n]
		for i, r := range got.Results {
			var c any
			_ = json.Unmarshal(r.Content, &c)
			if !reflect.DeepEqual(c, e.content) {
				t.Errorf("seed %d order %d: yjs reads %s, Go %v", e.seed, i, r.Content, e.content)
			}
			if r.Pending {
				t.Errorf("seed %d order %d: yjs kept updates pending", e.seed, i)
			}
			sameBytes(t, fmt.Sprintf("seed %d order %d state vector", e.seed, i), e.svs[i], b64(t, r.SV))
			sameBytes(t, fmt.Sprintf("seed %d order %d state", e.seed, i), e.states[i], b64(t, r.State))
		}
	}
	if n != len(expects) {
		t.Fatalf("yjs answered %d of %d traces", n, len(expects))
	}
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func jsonRoundTrip(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// runGoEdits runs one random trace and returns its local updates and the
// content all peers converged to.
func runGoEdits(t *testing.T, seed uint64) ([][]byte, any) {
	g := &goEditor{rnd: rand.New(rand.NewPCG(seed, 7))}
	for i := range 2 + g.rnd.IntN(3) {
		g.docs = append(g.docs, yjs.NewDoc(uint64(100+i)))
	}
	var local [][]byte
	for range 5 + g.rnd.IntN(30) {
		if g.rnd.IntN(4) == 0 {
			g.sync(t, g.rnd.IntN(len(g.docs)), g.rnd.IntN(len(g.docs)))
			continue
		}
		d := g.docs[g.rnd.IntN(len(g.docs))]
		u, err := d.Transact(func(tx *yjs.Tx) error {
			for range 1 + g.rnd.IntN(3) {
				if err := g.edit(tx, d); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if u != nil {
			local = append(local, u)
		}
	}
	for i := range g.docs {
		for j := range g.docs {
			g.sync(t, i, j)
		}
	}
	want := jsonRoundTrip(t, content(g.docs[0]))
	for i, d := range g.docs[1:] {
		if got := jsonRoundTrip(t, content(d)); !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d: Go peers 0 and %d did not converge", seed, i+1)
		}
	}
	return local, want
}

func (g *goEditor) sync(t *testing.T, from, to int) {
	if from == to {
		return
	}
	u, err := g.docs[from].EncodeStateAsUpdate(g.docs[to].StateVector())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.docs[to].ApplyUpdate(u); err != nil {
		t.Fatal(err)
	}
}
