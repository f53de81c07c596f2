package annotations_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/api"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

func ids(list []*AnnotationView) []string {
	out := make([]string, len(list))
	for i, a := range list {
		if a == nil {
			out[i] = "<null>"
			continue
		}
		out[i] = a.AnnotationID
	}
	return out
}

// pages reads every page of req and returns the ids in order and the
// number of pages.
func (f *fixture) pages(ws string, req GetRequest) ([]string, int) {
	f.t.Helper()
	var all []string
	for n := 1; ; n++ {
		res := f.get(ws, req)
		all = append(all, ids(res.Data.([]*AnnotationView))...)
		if res.NextPageToken == "" {
			return all, n
		}
		if n > 50 {
			f.t.Fatal("pagination does not end")
		}
		req.PageToken = res.NextPageToken
	}
}

func TestGetPagesThroughEveryAnnotationOnce(t *testing.T) {
	for _, tokens := range []string{"redis", "database fallback"} {
		t.Run(tokens, func(t *testing.T) {
			f := newFixture(t)
			if tokens != "redis" {
				f.svc.SetPageTokens(store.NewPageTokens(f.db, f.svc.Clock()))
			}
			var added []string
			for i := range 25 {
				added = append(added, f.add("ws1", "doc1", fmt.Sprintf("a%02d", i), comment("alice", "x")))
			}
			got, n := f.pages("ws1", GetRequest{DocumentID: "doc1", PageSize: ptr(10)})
			newestFirst := slices.Clone(added)
			slices.Reverse(newestFirst)
			if n != 3 || !slices.Equal(got, newestFirst) {
				t.Fatalf("desc: %d pages %v", n, got)
			}
			got, n = f.pages("ws1", GetRequest{DocumentID: "doc1", PageSize: ptr(10), Order: "asc"})
			if n != 3 || !slices.Equal(got, added) {
				t.Fatalf("asc: %d pages %v", n, got)
			}
		})
	}
}

func TestGetPageTokenIsBoundToItsQueryAndWorkspace(t *testing.T) {
	f := newFixture(t)
	for i := range 3 {
		f.add("ws1", "doc1", fmt.Sprintf("a%d", i), comment("alice", "x"))
	}
	res := f.get("ws1", GetRequest{DocumentID: "doc1", PageSize: ptr(1)})
	if res.NextPageToken == "" {
		t.Fatal("no next page token")
	}
	for name, call := range map[string]func() error{
		"other query": func() error {
			_, err := f.svc.Get(t.Context(), "ws1", GetRequest{OrganizationID: "org1", DocumentID: "doc2", PageToken: res.NextPageToken})
			return err
		},
		"other workspace": func() error {
			_, err := f.svc.Get(t.Context(), "ws2", GetRequest{OrganizationID: "org1", DocumentID: "doc1", PageToken: res.NextPageToken})
			return err
		},
		"unknown token": func() error {
			_, err := f.svc.Get(t.Context(), "ws1", GetRequest{OrganizationID: "org1", DocumentID: "doc1", PageToken: "nope"})
			return err
		},
	} {
		if err := call(); !api.IsStatus(err, api.InvalidArgument) {
			t.Errorf("%s: err = %v, want INVALID_ARGUMENT", name, err)
		}
	}
}

func TestGetFilters(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	f.add("ws1", "doc1", "a1", comment("alice", "for {{bob}}"))
	f.add("ws1", "doc1", "a2", comment("bob", "plain"))
	f.add("ws1", "doc2", "a3", comment("carol", "other doc"))
	_, err := f.svc.Add(ctx, "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc2", CommentAnnotations: []AnnotationInput{{
		AnnotationID: "a4", Location: map[string]any{"id": "L1"}, CommentData: []CommentInput{comment("carol", "located")},
		Status: map[string]any{"id": "IN_PROGRESS", "name": "In progress", "type": "ongoing", "color": "#f00", "lightColor": "#fcc", "iconUrl": "u"},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	f.add("ws1", "doc3", "a5", comment("alice", "third doc"))
	created := f.one("ws1", "a3").CreatedAt

	tests := []struct {
		name string
		req  GetRequest
		want []string
	}{
		{"one document", GetRequest{DocumentID: "doc1"}, []string{"a2", "a1"}},
		{"documents", GetRequest{DocumentIDs: []string{"doc1", "doc3"}}, []string{"a5", "a2", "a1"}},
		{"all documents", GetRequest{}, []string{"a5", "a4", "a3", "a2", "a1"}},
		{"creators", GetRequest{UserIDs: []string{"carol"}}, []string{"a4", "a3"}},
		{"mentioned", GetRequest{MentionedUserIDs: []string{"bob"}}, []string{"a1"}},
		{"status ids", GetRequest{StatusIDs: []string{"IN_PROGRESS"}}, []string{"a4"}},
		{"status id", GetRequest{StatusID: "OPEN", DocumentID: "doc2"}, []string{"a3"}},
		{"location ids", GetRequest{LocationIDs: []string{"L1"}}, []string{"a4"}},
		{"created after", GetRequest{CreatedAfter: &created}, []string{"a5", "a4"}},
		{"created before", GetRequest{CreatedBefore: &created}, []string{"a2", "a1"}},
		{"annotation ids with missing", GetRequest{AnnotationIDs: []string{"a1", "nope", "a3"}}, []string{"a3", "a1", "<null>"}},
		{"missing by filter", GetRequest{DocumentID: "doc1", AnnotationIDs: []string{"a3"}}, []string{"<null>"}},
		{"other organization", GetRequest{OrganizationID: "org2"}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ids(f.get("ws1", tt.req).Data.([]*AnnotationView)); !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}

	grouped := f.get("ws1", GetRequest{GroupByDocumentID: true}).Data.(map[string][]AnnotationView)
	if len(grouped) != 3 || len(grouped["doc1"]) != 2 || len(grouped["doc2"]) != 2 || len(grouped["doc3"]) != 1 {
		t.Fatalf("grouped = %v", grouped)
	}
}

func TestGetRefusesWhatItCannotFilter(t *testing.T) {
	f := newFixture(t)
	for name, req := range map[string]GetRequest{
		"two agent filters": {AgentID: "x", AgentSuggestions: true},
		"agent type":        {AgentType: "robot"},
		"agent source":      {AgentSource: "velt"},
		"order":             {Order: "sideways"},
		"page size":         {PageSize: ptr(1001)},
		"too many ids":      {AnnotationIDs: make([]string, 31)},
	} {
		req.OrganizationID = "org1"
		if _, err := f.svc.Get(t.Context(), "ws1", req); !api.IsStatus(err, api.InvalidArgument) {
			t.Errorf("%s: err = %v, want INVALID_ARGUMENT", name, err)
		}
	}
}
