package yjs_test

import (
	"github.com/opencollab/backend/svc-content/internal/yjs"
)

// The random editor of TestGoEditsApplyInYjs: it edits a random shared
// type of a document through the Go API.

// targets lists the shared types reachable from the roots.
func targets(d *yjs.Doc) []any {
	var out []any
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		out = append(out, v)
		if depth > 3 {
			return
		}
		var children []any
		switch t := v.(type) {
		case *yjs.Map:
			for _, k := range t.Keys() {
				c, _ := t.Get(k)
				children = append(children, c)
			}
		case *yjs.Array:
			children = t.Values()
		case *yjs.XmlFragment:
			children = t.Children()
		case *yjs.XmlElement:
			children = t.Children()
		}
		for _, c := range children {
			switch c.(type) {
			case *yjs.Text, *yjs.Map, *yjs.Array, *yjs.XmlElement, *yjs.XmlText:
				walk(c, depth+1)
			}
		}
	}
	walk(d.Text("text"), 0)
	walk(d.Map("map"), 0)
	walk(d.Array("array"), 0)
	walk(d.XmlFragment("xml"), 0)
	return out
}

func (g *goEditor) pick(n int) int { return g.rnd.IntN(n) }

func (g *goEditor) str() string {
	words := []string{"a", "bc", "hello", " ", "é", "👍", "\n", "Ωmega"}
	s := ""
	for range 1 + g.pick(3) {
		s += words[g.pick(len(words))]
	}
	return s
}

func (g *goEditor) value(depth int) any {
	switch g.pick(8) {
	case 0:
		return g.pick(1000) - 500
	case 1:
		return g.rnd.Float64()
	case 2:
		return g.str()
	case 3:
		return g.pick(2) == 0
	case 4:
		return nil
	case 5:
		if depth < 2 {
			return []any{g.value(depth + 1), g.value(depth + 1)}
		}
		return []byte{byte(g.pick(256))}
	case 6:
		if depth < 2 {
			return map[string]any{"k": g.value(depth + 1), "1": g.value(depth + 1)}
		}
		return int64(1) << 40
	}
	return []byte{1, 2, 3}
}

func (g *goEditor) attrs() map[string]any {
	if g.pick(2) == 0 {
		return nil
	}
	a := map[string]any{}
	for _, k := range []string{"bold", "italic", "link"} {
		if g.pick(3) == 0 {
			switch k {
			case "link":
				a[k] = map[string]any{"href": g.str()}
			default:
				a[k] = []any{true, nil}[g.pick(2)]
			}
		}
	}
	return a
}

func (g *goEditor) prelim() any {
	switch g.pick(3) {
	case 0:
		return yjs.NewText(g.str())
	case 1:
		return yjs.NewArray(g.value(1), g.value(1))
	}
	return yjs.NewMap(map[string]any{"a": g.value(1)})
}

// edit makes one random edit on a random type of d.
func (g *goEditor) edit(tx *yjs.Tx, d *yjs.Doc) error {
	ts := targets(d)
	switch t := ts[g.pick(len(ts))].(type) {
	case *yjs.Text:
		return g.editText(tx, t)
	case *yjs.XmlText:
		return g.editText(tx, t)
	case *yjs.Map:
		key := []string{"a", "b", "c"}[g.pick(3)]
		switch g.pick(4) {
		case 0:
			return t.Set(tx, key, g.value(0))
		case 1:
			return t.Set(tx, key, g.prelim())
		case 2:
			// replace the whole content: some keys kept, some changed
			entries := map[string]any{}
			for _, k := range t.Keys() {
				if v, _ := t.Get(k); g.pick(2) == 0 {
					entries[k] = jsonOf(v)
				}
			}
			entries[key] = g.value(1)
			return t.SetJSON(tx, entries)
		}
		return t.Delete(tx, key)
	case *yjs.Array:
		n := t.Len()
		if n > 0 && g.pick(5) == 0 {
			// replace the whole content: one value changed
			vals := t.Values()
			for i, v := range vals {
				vals[i] = jsonOf(v)
			}
			vals[g.pick(n)] = g.value(1)
			return t.SetJSON(tx, vals)
		}
		switch r := g.pick(4); {
		case n == 0 || r == 0:
			return t.Insert(tx, g.pick(n+1), g.value(0), g.value(0))
		case r == 1:
			return t.Push(tx, g.prelim())
		case r == 2:
			return t.Insert(tx, g.pick(n+1), g.prelim())
		default:
			i := g.pick(n)
			return t.Delete(tx, i, 1+g.pick(min(3, n-i)))
		}
	case *yjs.XmlFragment:
		return g.editXML(tx, t, nil)
	case *yjs.XmlElement:
		return g.editXML(tx, xmlOf(t), t)
	}
	return nil
}

// xmlSeq is the sequence half shared by XmlFragment and XmlElement.
type xmlSeq interface {
	Len() int
	Insert(tx *yjs.Tx, index int, nodes ...any) error
	InsertElement(tx *yjs.Tx, index int, name string) (*yjs.XmlElement, error)
	InsertText(tx *yjs.Tx, index int) (*yjs.XmlText, error)
	Delete(tx *yjs.Tx, index, n int) error
}

func xmlOf(e *yjs.XmlElement) xmlSeq { return e }

func (g *goEditor) editXML(tx *yjs.Tx, x xmlSeq, el *yjs.XmlElement) error {
	n := x.Len()
	switch r := g.pick(6); {
	case n == 0 || r == 0:
		_, err := x.InsertElement(tx, g.pick(n+1), []string{"paragraph", "heading"}[g.pick(2)])
		return err
	case r == 1:
		xt, err := x.InsertText(tx, g.pick(n+1))
		if err != nil {
			return err
		}
		return xt.Insert(tx, 0, g.str(), g.attrs())
	case r == 2:
		return x.Insert(tx, g.pick(n+1), yjs.NewXmlElement("blockquote", map[string]any{"level": 2},
			yjs.NewXmlText(yjs.Delta{Insert: g.str(), Attributes: map[string]any{"bold": true}})))
	case r == 3 && el != nil:
		return el.SetAttribute(tx, []string{"level", "id"}[g.pick(2)], g.value(1))
	case r == 4 && el != nil:
		return el.RemoveAttribute(tx, "level")
	}
	i := g.pick(n)
	return x.Delete(tx, i, 1+g.pick(min(2, n-i)))
}

type textEditor interface {
	Len() int
	String() string
	SetString(tx *yjs.Tx, s string) error
	Delta() []yjs.Delta
	Insert(tx *yjs.Tx, index int, s string, attrs map[string]any) error
	InsertEmbed(tx *yjs.Tx, index int, v any, attrs map[string]any) error
	Delete(tx *yjs.Tx, index, n int) error
	Format(tx *yjs.Tx, index, n int, attrs map[string]any) error
}

// boundaries lists the indexes of a text that do not fall inside a
// surrogate pair. (Yjs replaces a pair cut in two by U+FFFD on the peer
// that cuts it, so peers editing inside pairs need not converge; the
// random edits stay clear of that.)
func boundaries(t textEditor) []int {
	out := []int{0}
	i := 0
	for _, op := range t.Delta() {
		s, ok := op.Insert.(string)
		if !ok {
			i++
			out = append(out, i)
			continue
		}
		for _, r := range s {
			i++
			if r >= 0x10000 {
				i++
			}
			out = append(out, i)
		}
	}
	return out
}

func (g *goEditor) editText(tx *yjs.Tx, t textEditor) error {
	b := boundaries(t)
	at := func() int { return b[g.pick(len(b))] }
	span := func() (int, int) {
		i := g.pick(len(b) - 1)
		j := i + 1 + g.pick(min(4, len(b)-1-i))
		return b[i], b[j] - b[i]
	}
	switch r := g.pick(9); {
	case r == 8:
		// replace the whole string: a word changed in the middle
		runes := []rune(t.String())
		at := g.pick(len(runes) + 1)
		cut := min(len(runes), at+g.pick(3))
		return t.SetString(tx, string(runes[:at])+g.str()+string(runes[cut:]))
	case len(b) == 1 || r < 3:
		return t.Insert(tx, at(), g.str(), g.attrs())
	case r == 3:
		return t.InsertEmbed(tx, at(), map[string]any{"image": g.str()}, g.attrs())
	case r < 6:
		i, n := span()
		return t.Delete(tx, i, n)
	default:
		a := g.attrs()
		if a == nil {
			a = map[string]any{"bold": true}
		}
		i, n := span()
		return t.Format(tx, i, n, a)
	}
}

// jsonOf is a value as JSON (shared types as their JSON).
func jsonOf(v any) any {
	if j, ok := v.(interface{ ToJSON() any }); ok {
		return j.ToJSON()
	}
	return v
}
