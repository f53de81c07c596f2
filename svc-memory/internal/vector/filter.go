package vector

import "slices"

// matcher is a Filter compiled against the store's dictionaries: checking
// a node is a handful of integer comparisons.
type matcher struct {
	want      [numFields]uint32 // 0 = any (the workspace is always set)
	decisions []uint32          // any of; nil = any
	excluded  []uint32          // document codes to skip
	from, to  int64             // inclusive, 0 = open
	// wsOnly: the workspace is the only condition (set by compile).
	wsOnly bool
}

// accepts checks node n of st against the matcher, through the compact
// workspace array when that is the only condition.
func (m *matcher) accepts(st *store, n uint32) bool {
	if m.wsOnly {
		return st.ws[n] == m.want[fieldWorkspace]
	}
	return m.match(&st.meta[n])
}

func (m *matcher) match(meta *nodeMeta) bool {
	for f := range m.want {
		if w := m.want[f]; w != 0 && meta.fields[f] != w {
			return false
		}
	}
	if m.decisions != nil && !slices.Contains(m.decisions, meta.fields[fieldDecision]) {
		return false
	}
	if len(m.excluded) > 0 && slices.Contains(m.excluded, meta.fields[fieldDocument]) {
		return false
	}
	if m.from != 0 && meta.created < m.from {
		return false
	}
	return m.to == 0 || meta.created <= m.to
}

// compile returns the matcher for f, or ok=false when some required value
// has never been stored (nothing can match).
func (s *store) compile(f Filter) (m matcher, ok bool) {
	vals := [numFields]string{f.WorkspaceID, f.OrganizationID, f.DocumentID, "",
		f.JudgeType, f.ContentType, f.ReviewerID, f.AnnotationID}
	for field, v := range vals {
		if v == "" {
			continue
		}
		code, found := s.dicts[field].lookup(v)
		if !found {
			return m, false
		}
		m.want[field] = code
	}
	if len(f.Decisions) > 0 {
		m.decisions = []uint32{}
		for _, d := range f.Decisions {
			// Duplicates would list the same posting list twice.
			if code, found := s.dicts[fieldDecision].lookup(d); found && code != 0 && !slices.Contains(m.decisions, code) {
				m.decisions = append(m.decisions, code)
			}
		}
		if len(m.decisions) == 0 {
			return m, false
		}
	}
	for _, d := range f.ExcludeDocumentIDs {
		if code, found := s.dicts[fieldDocument].lookup(d); found && code != 0 {
			m.excluded = append(m.excluded, code)
		}
	}
	m.from, m.to = f.CreatedFrom, f.CreatedTo
	m.wsOnly = m.onlyNeeds(fieldWorkspace) && m.decisions == nil
	return m, true
}

// plan says where a filtered query looks: the smallest set of posting
// lists whose union holds every node the matcher can accept (several lists
// only for Decisions).
type plan struct {
	lists [][]uint32
	total int
	// implied: the lists decide the filter on their own, so nodes need no
	// per-node check (saves a random memory access per candidate).
	implied bool
}

func (s *store) plan(m *matcher) plan {
	ws := m.want[fieldWorkspace]
	best := plan{lists: [][]uint32{s.posting(fieldWorkspace, ws, ws)}}
	best.total = len(best.lists[0])
	bestField := fieldWorkspace
	for f := fieldOrganization; f < numFields; f++ {
		if m.want[f] == 0 {
			continue
		}
		if l := s.posting(f, ws, m.want[f]); len(l) < best.total {
			best, bestField = plan{lists: [][]uint32{l}, total: len(l)}, f
		}
	}
	if m.decisions != nil {
		var union [][]uint32
		n := 0
		for _, d := range m.decisions {
			l := s.posting(fieldDecision, ws, d)
			union = append(union, l)
			n += len(l)
		}
		if n < best.total {
			best, bestField = plan{lists: union, total: n}, fieldDecision
		}
	}
	best.implied = m.onlyNeeds(bestField)
	return best
}

// onlyNeeds reports whether the matcher has no condition besides the
// workspace and the given field (the one the plan's lists are keyed by).
func (m *matcher) onlyNeeds(field int) bool {
	if len(m.excluded) > 0 || m.from != 0 || m.to != 0 {
		return false
	}
	if m.decisions != nil && field != fieldDecision {
		return false
	}
	for f := fieldOrganization; f < numFields; f++ {
		if m.want[f] != 0 && f != field {
			return false
		}
	}
	return true
}
