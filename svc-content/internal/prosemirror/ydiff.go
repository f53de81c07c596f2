package prosemirror

import (
	"unicode/utf16"

	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// updateChildren makes parent's children hold p's content, following
// y-prosemirror's updateYFragment for a binding that has no mapping yet
// (the server never rendered the document): equal children are kept from
// both ends, then pairs are updated in place or replaced.
func updateChildren(tx *yjs.Tx, parent yParent, p *Node) error {
	ys, ps := parent.Children(), childrenOf(p)
	minCnt := min(len(ys), len(ps))
	left, right := 0, 0
	for left < minCnt && equalYP(ys[left], ps[left]) {
		left++
	}
	for right+left+1 < minCnt && equalYP(ys[len(ys)-right-1], ps[len(ps)-right-1]) {
		right++
	}
	for len(ys)-left-right > 0 && len(ps)-left-right > 0 {
		leftY, leftP := ys[left], ps[left]
		rightY, rightP := ys[len(ys)-right-1], ps[len(ps)-right-1]
		if text, ok := leftY.(*yjs.XmlText); ok && leftP.run != nil {
			if !equalText(text, leftP.run) {
				if err := updateText(tx, text, leftP.run); err != nil {
					return err
				}
			}
			left++
			continue
		}
		leftEl, updateLeft := sameElement(leftY, leftP)
		rightEl, updateRight := sameElement(rightY, rightP)
		if updateLeft && updateRight {
			if equalityFactor(leftEl, leftP.node) < equalityFactor(rightEl, rightP.node) {
				updateLeft = false
			} else {
				updateRight = false
			}
		}
		switch {
		case updateLeft:
			if err := updateElement(tx, leftEl, leftP.node); err != nil {
				return err
			}
			left++
		case updateRight:
			if err := updateElement(tx, rightEl, rightP.node); err != nil {
				return err
			}
			right++
		default:
			if err := parent.Delete(tx, left, 1); err != nil {
				return err
			}
			if err := parent.Insert(tx, left, newYNode(leftP)); err != nil {
				return err
			}
			left++
		}
	}
	if text, ok := soleText(ys); ok && len(ps) == 0 {
		// Only the text's content goes, keeping the Y.XmlText (and
		// concurrent edits to it), as y-prosemirror does.
		if err := text.Delete(tx, 0, text.Len()); err != nil {
			return err
		}
	} else if n := len(ys) - left - right; n > 0 {
		if err := parent.Delete(tx, left, n); err != nil {
			return err
		}
	}
	if left+right < len(ps) {
		nodes := make([]any, 0, len(ps)-left-right)
		for _, c := range ps[left : len(ps)-right] {
			nodes = append(nodes, newYNode(c))
		}
		return parent.Insert(tx, left, nodes...)
	}
	return nil
}

func soleText(ys []any) (*yjs.XmlText, bool) {
	if len(ys) != 1 {
		return nil, false
	}
	t, ok := ys[0].(*yjs.XmlText)
	return t, ok
}

func sameElement(y any, p pChild) (*yjs.XmlElement, bool) {
	el, ok := y.(*yjs.XmlElement)
	return el, ok && p.node != nil && el.NodeName() == p.node.Type
}

// equalityFactor counts the children of el equal to p's from both ends
// (computeChildEqualityFactor).
func equalityFactor(el *yjs.XmlElement, p *Node) int {
	ys, ps := el.Children(), childrenOf(p)
	minCnt := min(len(ys), len(ps))
	left, right := 0, 0
	for left < minCnt && equalYP(ys[left], ps[left]) {
		left++
	}
	for left+right < minCnt && equalYP(ys[len(ys)-right-1], ps[len(ps)-right-1]) {
		right++
	}
	return left + right
}

// equalYP is equalYTypePNode: same name, attributes and children, or the
// same text runs.
func equalYP(y any, p pChild) bool {
	switch t := y.(type) {
	case *yjs.XmlElement:
		if p.node == nil || t.NodeName() != p.node.Type {
			return false
		}
		ys, ps := t.Children(), childrenOf(p.node)
		if len(ys) != len(ps) || !equalAttrs(p.node.Attrs, t.Attributes()) {
			return false
		}
		for i := range ys {
			if !equalYP(ys[i], ps[i]) {
				return false
			}
		}
		return true
	case *yjs.XmlText:
		return p.run != nil && equalText(t, p.run)
	}
	return false
}

// equalText is equalYTextPText: the same runs with the same marks.
func equalText(t *yjs.XmlText, run []*Node) bool {
	delta := t.Delta()
	if len(delta) != len(run) {
		return false
	}
	for i, d := range delta {
		if s, ok := d.Insert.(string); !ok || s != run[i].Text || len(d.Attributes) != len(run[i].Marks) {
			return false
		}
		for name, v := range d.Attributes {
			m, ok := findMark(run[i].Marks, name)
			if !ok {
				return false
			}
			attrs, _ := v.(map[string]any)
			if !equalAttrs(attrs, m.Attrs) {
				return false
			}
		}
	}
	return true
}

func findMark(marks []Mark, yName string) (Mark, bool) {
	if m := overlapMark.FindStringSubmatch(yName); m != nil {
		yName = m[1]
	}
	for _, m := range marks {
		if m.Type == yName {
			return m, true
		}
	}
	return Mark{}, false
}

// equalAttrs is y-prosemirror's equalAttrs: null values do not count,
// objects compare by their entries, other values strictly.
func equalAttrs(a, b map[string]any) bool {
	count := func(m map[string]any) int {
		n := 0
		for _, v := range m {
			if v != nil {
				n++
			}
		}
		return n
	}
	if count(a) != count(b) {
		return false
	}
	for k, l := range a {
		if l == nil {
			continue
		}
		r := b[k]
		lm, lok := l.(map[string]any)
		rm, rok := r.(map[string]any)
		if !(lok && rok && equalAttrs(lm, rm)) && !strictEqual(l, r) {
			return false
		}
	}
	return true
}

// strictEqual is JavaScript's === on JSON values: objects are never equal.
func strictEqual(a, b any) bool {
	switch a.(type) {
	case nil, string, float64, bool:
		return a == b
	}
	return false
}

// updateText patches t to hold run (updateYText): the text changes by
// one deletion and one insertion between the common prefix and suffix,
// then every run is formatted with its marks, attributes the text had
// and the run lacks set to null.
func updateText(tx *yjs.Tx, t *yjs.XmlText, run []*Node) error {
	cleared := map[string]any{}
	for _, d := range t.Delta() {
		for k := range d.Attributes {
			cleared[k] = nil
		}
	}
	var want string
	for _, n := range run {
		want += n.Text
	}
	index, remove, insert := simpleDiff(t.String(), want)
	if remove > 0 {
		if err := t.Delete(tx, index, remove); err != nil {
			return err
		}
	}
	if insert != "" {
		if err := t.Insert(tx, index, insert, nil); err != nil {
			return err
		}
	}
	pos := 0
	for _, n := range run {
		attrs := map[string]any{}
		for k := range cleared {
			attrs[k] = nil
		}
		for k, v := range marksToAttributes(n.Marks) {
			attrs[k] = v
		}
		size := len(utf16.Encode([]rune(n.Text)))
		if err := t.Format(tx, pos, size, attrs); err != nil {
			return err
		}
		pos += size
	}
	return nil
}

// simpleDiff is lib0's simpleDiffString in UTF-16 code units: the common
// prefix and suffix (never splitting a surrogate pair) stay, the middle of
// a is replaced with the middle of b.
func simpleDiff(a, b string) (index, remove int, insert string) {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	left, right := 0, 0
	for left < len(ua) && left < len(ub) && ua[left] == ub[left] {
		left++
	}
	if left > 0 && utf16.IsSurrogate(rune(ua[left-1])) && ua[left-1] < 0xdc00 {
		left--
	}
	for right+left < len(ua) && right+left < len(ub) && ua[len(ua)-right-1] == ub[len(ub)-right-1] {
		right++
	}
	if right > 0 && ua[len(ua)-right] >= 0xdc00 && ua[len(ua)-right] <= 0xdfff {
		right--
	}
	return left, len(ua) - left - right, string(utf16.Decode(ub[left : len(ub)-right]))
}
