package yjs

import "slices"

// Yjs removes formatting items that concurrent edits made redundant (two
// starts of the same attribute with no text between, ...): after local
// deletes, and after remote transactions in a follow-up local transaction
// whose deletes go to every peer.

// cleanupFormattingGap deletes the redundant formats between start and
// the next countable item; it returns how many it deleted.
func (tx *Tx) cleanupFormattingGap(start, curr *Item, startAttrs, currAttrs *attrMap) int {
	end := start
	endFormats := map[string]*contentFormat{}
	for end != nil && (!end.countable() || end.deleted()) {
		if f, ok := end.content.(*contentFormat); ok && !end.deleted() {
			endFormats[f.key] = f
		}
		end = end.right
	}
	cleanups := 0
	reachedCurr := false
	for start != end {
		if curr == start {
			reachedCurr = true
		}
		if f, ok := start.content.(*contentFormat); ok && !start.deleted() {
			startValue := attrOrNull(startAttrs, f.key)
			if endFormats[f.key] != f || strictEqual(startValue, f.value) {
				// overwritten by a later format, or the attribute held already
				start.delete(tx)
				cleanups++
				if !reachedCurr && strictEqual(attrOrNull(currAttrs, f.key), f.value) && !strictEqual(startValue, f.value) {
					if startValue == nil {
						currAttrs.del(f.key)
					} else {
						currAttrs.set(f.key, startValue)
					}
				}
			}
			if !reachedCurr && !start.deleted() {
				currAttrs.update(f)
			}
		}
		start = start.right
	}
	return cleanups
}

// cleanupContextlessFormattingGap deletes, in the gap of formats around
// item, all but the last format of each key.
func (tx *Tx) cleanupContextlessFormattingGap(item *Item) {
	for item != nil && item.right != nil && (item.right.deleted() || !item.right.countable()) {
		item = item.right
	}
	seen := map[string]bool{}
	for item != nil && (item.deleted() || !item.countable()) {
		if f, ok := item.content.(*contentFormat); ok && !item.deleted() {
			if seen[f.key] {
				item.delete(tx)
			} else {
				seen[f.key] = true
			}
		}
		item = item.left
	}
}

// cleanupTextFormatting is cleanupYTextFormatting: every gap of a text.
func (tx *Tx) cleanupTextFormatting(t *branch) int {
	res := 0
	start, end := t.start, t.start
	startAttrs := &attrMap{}
	currAttrs := startAttrs.clone()
	for end != nil {
		if !end.deleted() {
			if f, ok := end.content.(*contentFormat); ok {
				currAttrs.update(f)
			} else {
				res += tx.cleanupFormattingGap(start, end, startAttrs, currAttrs)
				startAttrs = currAttrs.clone()
				start = end
			}
		}
		end = end.right
	}
	return res
}

// cleanupFormattingAfter is cleanupYTextAfterTransaction: after a remote
// transaction, texts that got formats are cleaned whole, and the gaps where
// content was deleted are cleaned without context, in a new transaction.
func (d *Doc) cleanupFormattingAfter(done *Tx) {
	var full []*branch
	addFull := func(t *branch) {
		if !slices.Contains(full, t) {
			full = append(full, t)
		}
	}
	for client, after := range done.afterState {
		before := done.beforeState[client]
		if after == before {
			continue
		}
		done.iterateStructs(client, before, after, func(it *Item) {
			if !it.deleted() && isFormat(it) {
				addFull(it.parent)
			}
		})
	}
	_, _ = d.transact(true, func(tx *Tx) error {
		done.iterateDeletedStructs(func(it *Item) {
			if it.isGC() || it.parent == nil || !it.parent.hasFormatting || slices.Contains(full, it.parent) {
				return
			}
			if isFormat(it) {
				addFull(it.parent)
			} else {
				tx.cleanupContextlessFormattingGap(it)
			}
		})
		for _, t := range full {
			tx.cleanupTextFormatting(t)
		}
		return nil
	})
}

// iterateDeletedStructs calls f for every struct in the transaction's
// delete set, splitting at its ends.
func (tx *Tx) iterateDeletedStructs(f func(*Item)) {
	store := tx.doc.store
	for client, dels := range tx.deleteSet {
		state := store.state(client)
		for _, del := range dels {
			if del.clock >= state {
				break
			}
			tx.iterateStructs(client, del.clock, del.length, f)
		}
	}
}
