package yjs

// Search markers (Yjs ArraySearchMarker): remembered (item, index) pairs of
// a sequence, so that finding an index starts near it instead of at the
// start. They make typing at one place O(1) per key instead of O(n).

// maxSearchMarkers is how many markers a type keeps (Yjs maxSearchMarker).
const maxSearchMarkers = 80

type marker struct {
	p         *Item
	index     int
	timestamp uint64
}

type searchMarkers struct {
	list []*marker
}

func (d *Doc) markerTime() uint64 {
	d.markerClock++
	return d.markerClock
}

// reset forgets every marker (after remote changes). Like Yjs it leaves
// the items' marker flags set.
func (m *searchMarkers) reset() { m.list = m.list[:0] }

// replaced moves markers from right to it when it absorbs right.
func (m *searchMarkers) replaced(right, it *Item) {
	for _, mk := range m.list {
		if mk.p == right {
			mk.p = it
			if !it.deleted() && it.countable() {
				mk.index -= int(it.length)
			}
		}
	}
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// findMarker is findMarker of Yjs: a marker at an item near index, moved or
// created to point at the item that holds index.
func (b *branch) findMarker(index int) *marker {
	if b.start == nil || index == 0 || b.markers == nil {
		return nil
	}
	var m *marker
	for _, x := range b.markers.list {
		if m == nil || !(absInt(index-m.index) < absInt(index-x.index)) {
			m = x
		}
	}
	p, pindex := b.start, 0
	if m != nil {
		p, pindex = m.p, m.index
		m.timestamp = b.doc.markerTime()
	}
	for p.right != nil && pindex < index {
		if !p.deleted() && p.countable() {
			if index < pindex+int(p.length) {
				break
			}
			pindex += int(p.length)
		}
		p = p.right
	}
	for p.left != nil && pindex > index {
		p = p.left
		if !p.deleted() && p.countable() {
			pindex -= int(p.length)
		}
	}
	// p must not be mergeable with its left neighbour, or a merge would
	// leave the marker inside an item.
	for p.left != nil && p.left.id.Client == p.id.Client && p.left.id.Clock+p.left.length == p.id.Clock {
		p = p.left
		if !p.deleted() && p.countable() {
			pindex -= int(p.length)
		}
	}
	if m != nil && float64(absInt(m.index-pindex)) < float64(p.parent.length)/maxSearchMarkers {
		b.overwriteMarker(m, p, pindex)
		return m
	}
	return b.markPosition(p, pindex)
}

func (b *branch) overwriteMarker(m *marker, p *Item, index int) {
	m.p.setFlag(flagMarker, false)
	m.p = p
	p.setFlag(flagMarker, true)
	m.index = index
	m.timestamp = b.doc.markerTime()
}

func (b *branch) markPosition(p *Item, index int) *marker {
	list := b.markers.list
	if len(list) >= maxSearchMarkers {
		oldest := list[0]
		for _, x := range list[1:] {
			if !(oldest.timestamp < x.timestamp) {
				oldest = x
			}
		}
		b.overwriteMarker(oldest, p, index)
		return oldest
	}
	p.setFlag(flagMarker, true)
	m := &marker{p: p, index: index, timestamp: b.doc.markerTime()}
	b.markers.list = append(list, m)
	return m
}

// updateMarkerChanges shifts the markers after a local insert (n > 0) or
// delete (n < 0) at index.
func (m *searchMarkers) updateMarkerChanges(index, n int) {
	for i := len(m.list) - 1; i >= 0; i-- {
		mk := m.list[i]
		if n > 0 {
			p := mk.p
			p.setFlag(flagMarker, false)
			// move to the previous undeleted countable item, so that the
			// position can be compared
			for p != nil && (p.deleted() || !p.countable()) {
				p = p.left
				if p != nil && !p.deleted() && p.countable() {
					mk.index -= int(p.length)
				}
			}
			if p == nil || p.marker() {
				m.list = append(m.list[:i], m.list[i+1:]...)
				continue
			}
			mk.p = p
			p.setFlag(flagMarker, true)
		}
		if index < mk.index || (n > 0 && index == mk.index) {
			mk.index = max(index, mk.index+n)
		}
	}
}
