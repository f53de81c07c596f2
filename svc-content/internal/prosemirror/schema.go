package prosemirror

// nodeType is one node of TipTap 3 StarterKit's schema, as getSchema builds
// it from the extensions: its content expression, groups, attributes with
// their defaults (in declaration order, which is the order toJSON writes
// them) and the marks its inline content may carry.
type nodeType struct {
	name    string
	groups  []string
	content string // ProseMirror content expression; "" for a leaf
	inline  bool
	// marks lists the mark types allowed in the node's content; allMarks
	// (the default for nodes with inline content) allows every mark.
	marks    []string
	allMarks bool
	code     bool // whitespace "pre": text is kept as it is
	attrs    []attrSpec
	match    contentMatch // start state of content; set by newSchema
}

type attrSpec struct {
	name string
	def  any // default value (nil is null)
}

// markType is one mark of the schema. rank orders marks in a mark set as
// ProseMirror sorts them (schema order).
type markType struct {
	name     string
	rank     int
	excludes []string // mark types this one cannot coexist with
	attrs    []attrSpec
}

func (t *nodeType) isText() bool  { return t.name == "text" }
func (t *nodeType) isLeaf() bool  { return t.content == "" }
func (t *nodeType) isBlock() bool { return !t.inline }
func (t *nodeType) inGroup(g string) bool {
	for _, x := range t.groups {
		if x == g {
			return true
		}
	}
	return false
}

// inlineContent reports whether the node holds inline nodes (paragraph,
// heading, codeBlock): its first possible child is inline.
func (t *nodeType) inlineContent() bool {
	e := t.match.edges()
	return len(e) > 0 && e[0].typ.inline
}

func (t *nodeType) isTextblock() bool { return t.isBlock() && t.inlineContent() }

func (t *nodeType) allowsMark(m *markType) bool {
	if t.allMarks {
		return true
	}
	for _, n := range t.marks {
		if n == m.name {
			return true
		}
	}
	return false
}

func (m *markType) excludesType(o *markType) bool {
	for _, n := range m.excludes {
		if n == o.name {
			return true
		}
	}
	return false
}

// schema holds the node and mark types in schema order: node order decides
// which member of a group ProseMirror picks first (paragraph for "block",
// hardBreak before text for "inline"), mark order is mark rank.
type schema struct {
	nodes     []*nodeType
	marks     []*markType
	nodeByKey map[string]*nodeType
	markByKey map[string]*markType
}

func (s *schema) node(name string) *nodeType { return s.nodeByKey[name] }
func (s *schema) mark(name string) *markType { return s.markByKey[name] }

// The names of StarterKit's link defaults (LinkOptions.HTMLAttributes).
const (
	linkDefaultTarget = "_blank"
	linkDefaultRel    = "noopener noreferrer nofollow"
)

// starterKit is the schema of TipTap 3.34's StarterKit with default options,
// in the order getSchema([StarterKit]) produces (extensions sorted by
// priority: paragraph and link have priority 1000, the rest 100).
var starterKit = newSchema(
	[]*nodeType{
		{name: "paragraph", groups: []string{"block"}, content: "inline*", allMarks: true},
		{name: "blockquote", groups: []string{"block"}, content: "block+"},
		{name: "bulletList", groups: []string{"block", "list"}, content: "listItem+"},
		{name: "codeBlock", groups: []string{"block"}, content: "text*", code: true,
			attrs: []attrSpec{{name: "language"}}},
		{name: "doc", content: "block+"},
		{name: "hardBreak", groups: []string{"inline"}, inline: true},
		{name: "heading", groups: []string{"block"}, content: "inline*", allMarks: true,
			attrs: []attrSpec{{name: "level", def: float64(1)}}},
		{name: "horizontalRule", groups: []string{"block"}},
		{name: "listItem", content: "paragraph block*"},
		{name: "orderedList", groups: []string{"block", "list"}, content: "listItem+",
			attrs: []attrSpec{{name: "start", def: float64(1)}, {name: "type"}}},
		{name: "text", groups: []string{"inline"}, inline: true},
	},
	[]*markType{
		{name: "link", excludes: []string{"link"}, attrs: []attrSpec{
			{name: "href"}, {name: "target", def: linkDefaultTarget},
			{name: "rel", def: linkDefaultRel}, {name: "class"}, {name: "title"}}},
		{name: "bold", excludes: []string{"bold"}},
		// code has excludes "_": it cannot share text with any mark.
		{name: "code", excludes: []string{"link", "bold", "code", "italic", "strike", "underline"}},
		{name: "italic", excludes: []string{"italic"}},
		{name: "strike", excludes: []string{"strike"}},
		{name: "underline", excludes: []string{"underline"}},
	},
)

func newSchema(nodes []*nodeType, marks []*markType) *schema {
	s := &schema{nodes: nodes, marks: marks, nodeByKey: map[string]*nodeType{}, markByKey: map[string]*markType{}}
	for _, n := range nodes {
		s.nodeByKey[n.name] = n
	}
	for i, m := range marks {
		m.rank = i
		s.markByKey[m.name] = m
	}
	for _, n := range nodes {
		n.match = contentMatch{expr: s.compile(n.content)}
	}
	return s
}

// defaultAttrs returns the attributes of a node or mark with only defaults
// (nil when the type has none).
func defaultAttrs(specs []attrSpec) map[string]any {
	if len(specs) == 0 {
		return nil
	}
	a := make(map[string]any, len(specs))
	for _, s := range specs {
		a[s.name] = s.def
	}
	return a
}
