package prosemirror

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// ParseJSON reads a ProseMirror document ({"type": "doc", "content": [...]},
// as TipTap's editor.getJSON() writes it) and checks it against StarterKit's
// schema as ProseMirror's Node.check() does: known node and mark types,
// content that matches each node's content expression (a listItem starts
// with a paragraph, a blockquote holds blocks, ...), marks only where the
// parent allows them (none in a codeBlock, none on blocks), a valid mark
// set per node (code excludes every other mark), non-empty text. Beyond
// ProseMirror, attributes must have the types TipTap stores (heading level
// an integer 1-6, orderedList start an integer, strings or null
// elsewhere) and unknown keys or attributes are refused. Missing
// attributes take their defaults and adjacent text nodes with the same
// marks are joined, as Node.fromJSON does. Errors wrap ErrInvalid and name
// the path (content[1].marks[0]) of the fault.
func ParseJSON(data []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, invalidf("ProseMirror JSON cannot be read: %v", err)
	}
	if dec.More() {
		return nil, invalidf("ProseMirror JSON has data after the document")
	}
	obj, ok := v.(map[string]any)
	if !ok || obj["type"] != "doc" {
		return nil, invalidf(`ProseMirror JSON must be an object with "type": "doc"`)
	}
	return readNode(obj, "doc")
}

func readNode(obj map[string]any, path string) (*Node, error) {
	for k := range obj {
		switch k {
		case "type", "attrs", "content", "marks", "text":
		default:
			return nil, invalidf("%s: unknown key %q", path, k)
		}
	}
	name, _ := obj["type"].(string)
	t := starterKit.node(name)
	if t == nil {
		return nil, invalidf("%s: unknown node type %q (StarterKit has %s)", path, obj["type"], strings.Join(nodeNames(), ", "))
	}
	attrs, err := readAttrs(obj["attrs"], t.attrs, name, path)
	if err != nil {
		return nil, err
	}
	n := &Node{Type: name, Attrs: attrs}
	if n.Marks, err = readMarks(obj["marks"], path); err != nil {
		return nil, err
	}
	if t.isText() {
		return readText(obj, n, path)
	}
	if _, ok := obj["text"]; ok {
		return nil, invalidf("%s: only text nodes have text", path)
	}
	if err := readContent(obj["content"], t, n, path); err != nil {
		return nil, err
	}
	return n, nil
}

func readText(obj map[string]any, n *Node, path string) (*Node, error) {
	text, ok := obj["text"].(string)
	if !ok || text == "" {
		return nil, invalidf("%s: a text node needs a non-empty string text", path)
	}
	if _, ok := obj["content"]; ok {
		return nil, invalidf("%s: a text node has no content", path)
	}
	n.Text = text
	return n, nil
}

func readContent(v any, t *nodeType, n *Node, path string) error {
	if v == nil {
		v = []any{}
	}
	list, ok := v.([]any)
	if !ok {
		return invalidf("%s.content must be an array", path)
	}
	for i, c := range list {
		cpath := fmt.Sprintf("%s.content[%d]", path, i)
		obj, ok := c.(map[string]any)
		if !ok {
			return invalidf("%s must be an object", cpath)
		}
		child, err := readNode(obj, cpath)
		if err != nil {
			return err
		}
		for _, m := range child.Marks {
			if !t.allowsMark(starterKit.mark(m.Type)) {
				return invalidf("%s: mark %s is not allowed in %s", cpath, m.Type, t.name)
			}
		}
		n.Content = append(n.Content, child)
	}
	n.Content = joinText(n.Content)
	if end, ok := t.match.matchNodes(n.Content); !ok || !end.validEnd() {
		if t.isLeaf() {
			return invalidf("%s: %s has no content", path, t.name)
		}
		return invalidf("%s: content of %s must match %q, got [%s]", path, t.name, t.content, childTypes(n.Content))
	}
	return nil
}

func readMarks(v any, path string) ([]Mark, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, invalidf("%s.marks must be an array", path)
	}
	var set []Mark
	for i, x := range list {
		mpath := fmt.Sprintf("%s.marks[%d]", path, i)
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, invalidf("%s must be an object", mpath)
		}
		for k := range obj {
			if k != "type" && k != "attrs" {
				return nil, invalidf("%s: unknown key %q", mpath, k)
			}
		}
		name, _ := obj["type"].(string)
		mt := starterKit.mark(name)
		if mt == nil {
			return nil, invalidf("%s: unknown mark type %q (StarterKit has link, bold, code, italic, strike, underline)", mpath, obj["type"])
		}
		attrs, err := readAttrs(obj["attrs"], mt.attrs, name, mpath)
		if err != nil {
			return nil, err
		}
		m := Mark{Type: name, Attrs: attrs}
		next := addMark(set, m)
		if len(next) != len(set)+1 {
			return nil, invalidf("%s: mark %s cannot be combined with the marks before it", mpath, name)
		}
		set = next
	}
	return set, nil
}

// readAttrs checks given attributes against the type's and fills in the
// defaults.
func readAttrs(v any, specs []attrSpec, typ, path string) (map[string]any, error) {
	given := map[string]any{}
	if v != nil {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, invalidf("%s.attrs must be an object", path)
		}
		given = obj
	}
	known := map[string]bool{}
	for _, s := range specs {
		known[s.name] = true
	}
	for k := range given {
		if !known[k] {
			return nil, invalidf("%s: %s has no attribute %q", path, typ, k)
		}
	}
	out := computeAttrs(specs, nil)
	for k, raw := range given {
		val, err := attrValueFor(typ, k, raw)
		if err != nil {
			return nil, invalidf("%s.attrs.%s: %v", path, k, err)
		}
		out[k] = val
	}
	return out, nil
}

// attrValueFor checks one attribute value's type and converts numbers.
func attrValueFor(typ, name string, v any) (any, error) {
	switch {
	case typ == "heading" && name == "level":
		f, err := integer(v)
		if err != nil || f < 1 || f > 6 {
			return nil, fmt.Errorf("must be an integer from 1 to 6")
		}
		return f, nil
	case typ == "orderedList" && name == "start":
		f, err := integer(v)
		if err != nil {
			return nil, err
		}
		return f, nil
	case typ == "link" && name == "href":
		if s, ok := v.(string); ok {
			return s, nil
		}
		return nil, fmt.Errorf("must be a string")
	}
	if v == nil {
		return nil, nil
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	return nil, fmt.Errorf("must be a string or null")
}

func integer(v any) (float64, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("must be an integer")
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("must be an integer")
	}
	return f, nil
}

func nodeNames() []string {
	var out []string
	for _, n := range starterKit.nodes {
		out = append(out, n.name)
	}
	return out
}

func childTypes(nodes []*Node) string {
	names := make([]string, len(nodes))
	for i, n := range nodes {
		names[i] = n.Type
	}
	return strings.Join(names, ", ")
}
