package evalset

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// linked is a judgment of the link tests: organization, document,
// annotation, reasoning and reviewed content.
type linked struct{ id, org, doc, ann, reasoning, content string }

// linkService runs the memory service (hybrid, built-in embedder) on js.
func linkService(t *testing.T, js []linked) *memory.Service {
	t.Helper()
	set := &Set{}
	for _, j := range js {
		set.Judgments = append(set.Judgments, Judgment{ID: j.id, Org: j.org, Document: j.doc, Annotation: j.ann,
			Decision: "rejected", Reviewer: "u1", Reasoning: j.reasoning, Content: j.content})
	}
	svc, err := newService(context.Background(), set, memory.RetrievalHybrid, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

func searchIDs(t *testing.T, svc *memory.Service, query, org string, limit int) []string {
	t.Helper()
	res, err := svc.Search(context.Background(), Workspace, memory.SearchRequest{Query: query, OrganizationID: org, Limit: &limit})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range res.Results {
		ids = append(ids, r.RecordID)
	}
	return ids
}

// returnsDistractors share a word with the queries of the link tests but
// decide other points, each on a document of its own.
var returnsDistractors = []linked{
	{"d1", "o1", "doc-d1", "", "Returns policy page needs the 30 day window, reject.", "Free returns."},
	{"d2", "o1", "doc-d2", "", "Product returns form is missing the order number field.", "Return form"},
	{"d3", "o1", "doc-d3", "", "The brochure cover photo is blurry, replace it.", "[cover photo]"},
	{"d4", "o1", "doc-d4", "", "Brochure footer lacks the company address.", "[footer]"},
}

// A judgment worded with nothing in common with the query is found
// through the judgment it shares a document with, or whose reviewed
// content it shares; one of another organization is not, whatever it shares.
func TestLinkedJudgmentsArePulledUp(t *testing.T) {
	t.Parallel()
	js := append([]linked{
		{"g1", "o1", "doc-fund", "", "Brochure promises guaranteed 12% returns; no investment return can be guaranteed.", "Guaranteed 12% annual returns."},
		{"g2", "o1", "doc-fund", "", "Disagree with approval: risk-free income is misleading for an equity product.", "Risk-free income every month."},
		{"g3", "o1", "doc-leaflet", "", "Not allowed, see the legal memo.", "Guaranteed 12% annual returns, paid monthly."},
		{"x1", "o2", "doc-fund", "", "Cannot say this, misleading.", "Guaranteed 12% annual returns."},
	}, returnsDistractors...)
	svc := linkService(t, js)
	got := searchIDs(t, svc, "Can the brochure promise guaranteed returns?", "o1", 3)
	for _, want := range []string{"g1", "g2", "g3"} {
		if !slices.Contains(got, want) {
			t.Errorf("top 3 %v lacks %s", got, want)
		}
	}
	if all := searchIDs(t, svc, "Can the brochure promise guaranteed returns?", "o1", 50); slices.Contains(all, "x1") {
		t.Errorf("organization o1's search found o2's x1: %v", all)
	}
}

// On a document with many judgments, the seed's annotation thread and the
// decisions on the whole document (no thread) are linked to it; the
// document's other threads are other points and are not.
func TestThreadLinksOutweighTheDocument(t *testing.T) {
	t.Parallel()
	js := append([]linked{
		{"t1", "o1", "doc-big", "ann-1", "Brochure promises guaranteed 12% returns, reject.", ""},
		{"t2", "o1", "doc-big", "ann-1", "Agree, take it out.", ""},
		{"t3", "o1", "doc-big", "ann-2", "Logo is too small.", ""},
		{"t4", "o1", "doc-big", "ann-3", "Font does not match the style guide.", ""},
		{"t5", "o1", "doc-big", "ann-4", "Please shorten the intro.", ""},
		{"t6", "o1", "doc-big", "", "Sent back to the author.", ""},
	}, returnsDistractors...)
	svc := linkService(t, js)
	got := searchIDs(t, svc, "guaranteed returns in the brochure", "o1", 10)
	if len(got) < 3 || got[0] != "t1" || !slices.Contains(got[1:3], "t2") || !slices.Contains(got[1:3], "t6") {
		t.Fatalf("ranking %v, want t1 then its thread's t2 and the document's t6", got)
	}
	lastDistractor := -1
	for i, id := range got {
		if strings.HasPrefix(id, "d") {
			lastDistractor = i
		}
	}
	for i, id := range got[:lastDistractor+1] {
		if slices.Contains([]string{"t3", "t4", "t5"}, id) {
			t.Errorf("ranking %v: %s (rank %d) of another thread ranks above a distractor that shares a word", got, id, i+1)
		}
	}
}
