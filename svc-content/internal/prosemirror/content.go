package prosemirror

import "strings"

// The content expressions of StarterKit are sequences of terms, each a
// node name or group with an optional "+" or "*": "block+", "inline*",
// "text*", "listItem+", "paragraph block*". A contentMatch is a state of
// matching such a sequence, with the operations ProseMirror's ContentMatch
// offers (matchType, edges in schema order, validEnd, fillBefore,
// findWrapping), which its DOMParser relies on.

type term struct {
	types  []*nodeType
	min    int  // 0 or 1
	repeat bool // "+" or "*"
}

type contentExpr struct{ terms []term }

// compile reads a content expression; it panics on a name the schema does
// not have, since the schema is a constant of this package.
func (s *schema) compile(expr string) *contentExpr {
	e := &contentExpr{}
	for _, word := range strings.Fields(expr) {
		t := term{min: 1}
		switch {
		case strings.HasSuffix(word, "+"):
			t.repeat, word = true, strings.TrimSuffix(word, "+")
		case strings.HasSuffix(word, "*"):
			t.repeat, t.min, word = true, 0, strings.TrimSuffix(word, "*")
		}
		for _, n := range s.nodes {
			if n.name == word || n.inGroup(word) {
				t.types = append(t.types, n)
			}
		}
		if len(t.types) == 0 {
			panic("prosemirror: unknown name in content expression " + expr)
		}
		e.terms = append(e.terms, t)
	}
	return e
}

// contentMatch is comparable: equal values are the same state.
type contentMatch struct {
	expr  *contentExpr
	term  int // the term being matched
	count int // 1 once the term has matched its minimum
}

type edge struct {
	typ  *nodeType
	next contentMatch
}

func (m contentMatch) satisfied() bool {
	return m.term >= len(m.expr.terms) || m.count >= m.expr.terms[m.term].min
}

// edges lists the node types that may come next and the state each leads
// to, in schema order (ProseMirror's ContentMatch.next).
func (m contentMatch) edges() []edge {
	var out []edge
	for st := m; st.expr != nil && st.term < len(st.expr.terms); {
		t := st.expr.terms[st.term]
		for _, typ := range t.types {
			next := contentMatch{expr: st.expr, term: st.term + 1}
			if t.repeat {
				next = contentMatch{expr: st.expr, term: st.term, count: t.min}
			}
			out = append(out, edge{typ, next})
		}
		if !st.satisfied() {
			break
		}
		st = contentMatch{expr: st.expr, term: st.term + 1}
	}
	return out
}

// validEnd reports whether the content may end here.
func (m contentMatch) validEnd() bool {
	if m.expr == nil {
		return true
	}
	if !m.satisfied() {
		return false
	}
	for i := m.term + 1; i < len(m.expr.terms); i++ {
		if m.expr.terms[i].min > 0 {
			return false
		}
	}
	return true
}

func (m contentMatch) matchType(t *nodeType) (contentMatch, bool) {
	for _, e := range m.edges() {
		if e.typ == t {
			return e.next, true
		}
	}
	return contentMatch{}, false
}

func (m contentMatch) matchNodes(nodes []*Node) (contentMatch, bool) {
	cur := m
	for _, n := range nodes {
		var ok bool
		if cur, ok = cur.matchType(starterKit.node(n.Type)); !ok {
			return cur, false
		}
	}
	return cur, true
}

// fillBefore finds the shortest run of generated nodes that, inserted here,
// lets after match (and, with toEnd, end the content), as ProseMirror's
// ContentMatch.fillBefore does: depth first in edge order, skipping text.
func (m contentMatch) fillBefore(after []*Node, toEnd bool) ([]*Node, bool) {
	seen := []contentMatch{m}
	var search func(contentMatch, []*nodeType) ([]*Node, bool)
	search = func(match contentMatch, types []*nodeType) ([]*Node, bool) {
		if fin, ok := match.matchNodes(after); ok && (!toEnd || fin.validEnd()) {
			out := make([]*Node, 0, len(types))
			for _, t := range types {
				out = append(out, createAndFill(t))
			}
			return out, true
		}
		for _, e := range match.edges() {
			if e.typ.isText() || containsMatch(seen, e.next) {
				continue
			}
			seen = append(seen, e.next)
			if found, ok := search(e.next, append(append([]*nodeType(nil), types...), e.typ)); ok {
				return found, true
			}
		}
		return nil, false
	}
	return search(m, nil)
}

func containsMatch(list []contentMatch, m contentMatch) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}

// createAndFill makes a node of type t with default attributes and the
// minimal content that makes it valid (a listItem gets a paragraph).
func createAndFill(t *nodeType) *Node {
	n := &Node{Type: t.name, Attrs: defaultAttrs(t.attrs)}
	if fill, ok := t.match.fillBefore(nil, true); ok {
		n.Content = fill
	}
	return n
}

// findWrapping returns the node types to wrap around a node of type target
// so that it fits here (breadth first, as ContentMatch.findWrapping), or
// false when none does.
func (m contentMatch) findWrapping(target *nodeType) ([]*nodeType, bool) {
	type step struct {
		match contentMatch
		typ   *nodeType
		via   *step
	}
	seen := map[string]bool{}
	active := []*step{{match: m}}
	for len(active) > 0 {
		cur := active[0]
		active = active[1:]
		if _, ok := cur.match.matchType(target); ok {
			var out []*nodeType
			for s := cur; s.typ != nil; s = s.via {
				out = append([]*nodeType{s.typ}, out...)
			}
			return out, true
		}
		for _, e := range cur.match.edges() {
			if !e.typ.isLeaf() && !seen[e.typ.name] && (cur.typ == nil || e.next.validEnd()) {
				active = append(active, &step{match: e.typ.match, typ: e.typ, via: cur})
				seen[e.typ.name] = true
			}
		}
	}
	return nil, false
}
