package yjs_test

import (
	"encoding/json"
	"fmt"

	"github.com/opencollab/backend/svc-content/internal/yjs"
	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
)

// The actions of tools/yjscheck/difftrace.mjs (apply in yjshelpers.mjs)
// replayed through the Go API, and the content both sides compare.

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
