package lexical

import (
	"fmt"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/vector"
)

func judgmentDoc(id, org, review string) Doc {
	return Doc{ID: id, Review: review, Payload: vector.Payload{WorkspaceID: "ws", OrganizationID: org, Decision: "rejected"}}
}

func ids(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func newIndex() *Index {
	x := New()
	x.Upsert(
		judgmentDoc("cite", "o1", "rejected: the revenue claim has no source citation"),
		judgmentDoc("cited", "o1", "approved: revenue figures cited to the annual report"),
		judgmentDoc("tone", "o1", "rejected: tone is too informal for a legal notice"),
		judgmentDoc("other-org", "o2", "rejected: revenue claim has no source citation"),
	)
	for i := range 20 { // background, so IDF means something
		x.Upsert(judgmentDoc(fmt.Sprintf("bg%d", i), "o1", fmt.Sprintf("comment: layout tweak number %d for the footer", i)))
	}
	return x
}

func TestSearchStemsAndFilters(t *testing.T) {
	t.Parallel()
	x := newIndex()
	hits := x.Search("Citations missing for revenue claims?", vector.Filter{WorkspaceID: "ws", OrganizationID: "o1"}, 3, ReviewWeights)
	if len(hits) == 0 || hits[0].ID != "cite" {
		t.Fatalf("hits %v: want cite first", ids(hits))
	}
	for _, h := range hits {
		if h.Payload.OrganizationID != "o1" {
			t.Errorf("hit %s of another organization", h.ID)
		}
	}
	if got := x.Search("revenue", vector.Filter{WorkspaceID: "other"}, 3, ReviewWeights); len(got) != 0 {
		t.Errorf("another workspace found %v", ids(got))
	}
}

func TestNegationSeparatesWithAndWithout(t *testing.T) {
	t.Parallel()
	x := newIndex()
	f := vector.Filter{WorkspaceID: "ws", OrganizationID: "o1"}
	if hits := x.Search("revenue numbers without a citation", f, 2, ReviewWeights); len(hits) == 0 || hits[0].ID != "cite" {
		t.Errorf("without citation: %v, want cite first", ids(hits))
	}
	if hits := x.Search("revenue figures cited", f, 2, ReviewWeights); len(hits) == 0 || hits[0].ID != "cited" {
		t.Errorf("cited: %v, want cited first", ids(hits))
	}
}

func TestLongQueryCoversShortJudgment(t *testing.T) {
	t.Parallel()
	x := newIndex()
	q := "Hi team, before Friday's launch could someone look at the landing page copy again; " +
		"the tone is too informal for a legal notice in my opinion and marketing wants it approved"
	hits := x.Search(q, vector.Filter{WorkspaceID: "ws"}, 1, ReviewWeights)
	if len(hits) != 1 || hits[0].ID != "tone" || hits[0].Coverage < 0.8 {
		t.Fatalf("hits %+v: want tone with coverage >= 0.8", hits)
	}
}

func TestDeleteAndReplace(t *testing.T) {
	t.Parallel()
	x := newIndex()
	x.Delete("ws", "tone")
	x.Upsert(judgmentDoc("cite", "o1", "approved: layout is fine"))
	f := vector.Filter{WorkspaceID: "ws", OrganizationID: "o1"}
	for _, h := range x.Search("informal tone citation", f, 5, ReviewWeights) {
		if h.ID == "tone" || h.ID == "cite" {
			t.Errorf("found %s after delete/replace", h.ID)
		}
	}
	if x.Len() != 23 {
		t.Errorf("Len = %d, want 23", x.Len())
	}
}
