package yjs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Text is Y.Text: a string with formatting attributes, embeds and embedded
// shared types. Indexes and lengths count UTF-16 code units.
type Text branch

// Delta is one operation of a text's delta (Quill's format): Insert
// is a string, an embed (a JSON value) or a shared type; Attributes the
// formatting in effect (nil when none).
type Delta struct {
	Insert     any            `json:"insert"`
	Attributes map[string]any `json:"attributes,omitempty"`
}

// NewText is a text not in a document yet, to insert into a Map, Array or
// text (Yjs new Y.Text(s)).
func NewText(s string) *Text {
	b := newBranch(refText, "")
	b.prelim = &prelimContent{text: s}
	return (*Text)(b)
}

// Text returns the root text name, creating it (doc.getText); nil when the
// root exists as another kind.
func (d *Doc) Text(name string) *Text { return (*Text)(d.rootAs(name, refText)) }

func (t *Text) b() *branch { return (*branch)(t) }

// Len is the length in UTF-16 code units (embeds count 1).
func (t *Text) Len() int { return t.length }

// String is the text without embeds and formatting (toString).
func (t *Text) String() string {
	var sb strings.Builder
	sb.Grow(t.stringBytes()) // one allocation, not a doubling per run
	for n := t.start; n != nil; n = n.right {
		if c, ok := visibleString(n); ok {
			sb.Write(c.s)
		}
	}
	return sb.String()
}

// stringBytes is the length in bytes of String().
func (t *Text) stringBytes() int {
	size := 0
	for n := t.start; n != nil; n = n.right {
		if c, ok := visibleString(n); ok {
			size += len(c.s)
		}
	}
	return size
}

// visibleString is n's string content when it is part of the text.
func visibleString(n *Item) (*contentString, bool) {
	c, ok := n.content.(*contentString)
	return c, ok && !n.deleted() && n.countable()
}

// ToJSON is the text as a string (toJSON).
func (t *Text) ToJSON() any { return t.String() }

// JSString is how JavaScript's String() renders the text.
func (t *Text) JSString() string { return t.String() }

// Delta is the text as a delta (toDelta): runs of equal formatting.
func (t *Text) Delta() []Delta {
	raw := t.b().rawDelta()
	ops := make([]Delta, len(raw))
	for i, r := range raw {
		ops[i].Insert = jsonValueKeepTypes(r.insert)
		if r.attrs.size() > 0 {
			ops[i].Attributes = r.attrs.toMap()
		}
	}
	return ops
}

// rawOp is a delta operation with the stored values.
type rawOp struct {
	insert any // string, embed value or shared type
	attrs  *attrMap
}

func (b *branch) rawDelta() []rawOp {
	var ops []rawOp
	attrs := &attrMap{}
	var sb strings.Builder
	pack := func() {
		if sb.Len() > 0 {
			ops = append(ops, rawOp{insert: sb.String(), attrs: attrs.clone()})
			sb.Reset()
		}
	}
	for n := b.start; n != nil; n = n.right {
		if n.deleted() {
			continue
		}
		switch c := n.content.(type) {
		case *contentString:
			sb.Write(c.s)
		case *contentType, *contentEmbed:
			pack()
			ops = append(ops, rawOp{insert: contentValues(c)[0], attrs: attrs.clone()})
		case *contentFormat:
			pack()
			attrs.update(c)
		}
	}
	pack()
	return ops
}

// jsonValueKeepTypes is jsonValue but leaves shared types as they are.
func jsonValueKeepTypes(v any) any {
	if branchOf(v) != nil {
		return v
	}
	return jsonValue(v)
}

func (t *Text) checkTx(tx *Tx) error {
	if tx == nil || t.doc == nil || tx.doc != t.doc {
		return fmt.Errorf("yjs: the text is not in the transaction's document")
	}
	return nil
}

// Insert inserts s at index. attrs nil continues the formatting in effect
// at index; a map (even empty) sets exactly these attributes.
func (t *Text) Insert(tx *Tx, index int, s string, attrs map[string]any) error {
	if err := t.checkTx(tx); err != nil {
		return err
	}
	if index < 0 || index > t.length {
		return fmt.Errorf("%w: insert at %d in a text of length %d", ErrIndexOutOfRange, index, t.length)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("yjs: text is not valid UTF-8")
	}
	if s == "" {
		return nil
	}
	var a *attrMap
	if attrs != nil {
		var err error
		if a, err = attrsOf(attrs); err != nil {
			return err
		}
	}
	var pos textPos
	tx.findPosition(&pos, t.b(), index, a == nil)
	if a == nil {
		a = pos.attrs.clone()
	}
	tx.insertText(t.b(), &pos, newContentString([]byte(s)), a)
	return nil
}

// InsertEmbed inserts an embed (a JSON value) or a shared type made with
// NewText, NewMap, ... at index, with exactly attrs.
func (t *Text) InsertEmbed(tx *Tx, index int, v any, attrs map[string]any) error {
	if err := t.checkTx(tx); err != nil {
		return err
	}
	if index < 0 || index > t.length {
		return fmt.Errorf("%w: insert at %d in a text of length %d", ErrIndexOutOfRange, index, t.length)
	}
	var c content
	if b := branchOf(v); b != nil {
		if b.doc != nil || b.item != nil {
			return fmt.Errorf("yjs: a shared type can be inserted only once")
		}
		c = &contentType{t: b}
	} else {
		n, err := normalizeValue(v, 0)
		if err != nil {
			return err
		}
		c = &contentEmbed{v: n}
	}
	a, err := attrsOf(attrs)
	if err != nil {
		return err
	}
	var pos textPos
	tx.findPosition(&pos, t.b(), index, attrs == nil)
	tx.insertText(t.b(), &pos, c, a)
	return nil
}

// insertDelta appends one delta operation (prelim content).
func (t *Text) insertDelta(tx *Tx, d Delta) error {
	if s, ok := d.Insert.(string); ok {
		if d.Attributes == nil {
			d.Attributes = map[string]any{}
		}
		return t.Insert(tx, t.length, s, d.Attributes)
	}
	return t.InsertEmbed(tx, t.length, d.Insert, d.Attributes)
}

// Delete deletes n units from index.
func (t *Text) Delete(tx *Tx, index, n int) error {
	if err := t.checkTx(tx); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if index < 0 || n < 0 || index+n > t.length {
		return fmt.Errorf("%w: delete %d at %d in a text of length %d", ErrIndexOutOfRange, n, index, t.length)
	}
	var pos textPos
	tx.findPosition(&pos, t.b(), index, true)
	tx.deleteText(&pos, n)
	return nil
}

// Format sets attrs on n units from index (a nil value removes the
// attribute). The range must lie within the text (Yjs would append
// newlines for the part beyond the end, as Quill expects).
func (t *Text) Format(tx *Tx, index, n int, attrs map[string]any) error {
	if err := t.checkTx(tx); err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if index < 0 || n < 0 || index+n > t.length {
		return fmt.Errorf("%w: format %d at %d in a text of length %d", ErrIndexOutOfRange, n, index, t.length)
	}
	a, err := attrsOf(attrs)
	if err != nil {
		return err
	}
	var pos textPos
	tx.findPosition(&pos, t.b(), index, false)
	if pos.right == nil {
		return nil
	}
	tx.formatText(t.b(), &pos, n, a)
	return nil
}

// SetAttribute sets an attribute of the text itself (not formatting).
func (t *Text) SetAttribute(tx *Tx, key string, v any) error {
	if err := t.checkTx(tx); err != nil {
		return err
	}
	return tx.mapSet(t.b(), key, v)
}

// RemoveAttribute removes an attribute of the text itself.
func (t *Text) RemoveAttribute(tx *Tx, key string) error {
	if err := t.checkTx(tx); err != nil {
		return err
	}
	tx.mapDelete(t.b(), key)
	return nil
}

// Attribute returns an attribute of the text itself.
func (t *Text) Attribute(key string) (any, bool) {
	v, ok := t.b().mapGet(key)
	return jsonValueKeepTypes(v), ok
}
