package annotations_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/opencollab/backend/pkg/api"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
)

// folders is a FolderLister over a fixed map, recording what it was asked.
type folders struct {
	docs  map[string][]string
	err   error
	asked []string
}

func (f *folders) Documents(_ context.Context, ws, org, folder string) ([]string, bool, error) {
	f.asked = append(f.asked, ws+"/"+org+"/"+folder)
	docs, ok := f.docs[folder]
	return slices.Clone(docs), ok, f.err
}

// listed is the annotation ids of a get's data, "<null>" for a missing one.
func listed(data any) string { return fmt.Sprint(ids(data.([]*AnnotationView))) }

// folderId selects the annotations of the folder's documents, and
// AND-combines with a document filter; a folder with no documents (or none
// left by the filter) matches nothing, not everything.
func TestGetByFolder(t *testing.T) {
	f := newFixture(t)
	lister := &folders{docs: map[string][]string{"f1": {"doc1", "doc2"}, "empty": {}}}
	f.svc.WithFolders(lister)
	f.add("ws1", "doc1", "a1", comment("alice", "x"))
	f.add("ws1", "doc2", "a2", comment("alice", "y"))
	f.add("ws1", "doc3", "a3", comment("alice", "z"))

	asc := "asc"
	for _, tc := range []struct {
		req  GetRequest
		want string
	}{
		{GetRequest{FolderID: "f1", Order: asc}, "[a1 a2]"},
		{GetRequest{FolderID: "f1", DocumentIDs: []string{"doc2", "doc3"}}, "[a2]"},
		{GetRequest{FolderID: "f1", DocumentID: "doc3"}, "[]"},
		{GetRequest{FolderID: "empty"}, "[]"},
		{GetRequest{FolderID: "ghost", AnnotationIDs: []string{"a1"}}, "[<null>]"},
		{GetRequest{FolderID: "f1", AnnotationIDs: []string{"a1", "a3"}}, "[a1 <null>]"},
	} {
		if got := listed(f.get("ws1", tc.req).Data); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.req, got, tc.want)
		}
	}
	if lister.asked[0] != "ws1/org1/f1" {
		t.Errorf("asked %v", lister.asked)
	}

	// Pages of a folder, and the grouped form.
	first := f.get("ws1", GetRequest{FolderID: "f1", Order: asc, PageSize: ptr(1)})
	next := f.get("ws1", GetRequest{FolderID: "f1", Order: asc, PageSize: ptr(1), PageToken: first.NextPageToken})
	if listed(first.Data) != "[a1]" || listed(next.Data) != "[a2]" || next.NextPageToken != "" {
		t.Errorf("pages: %s then %s (%q)", listed(first.Data), listed(next.Data), next.NextPageToken)
	}
	grouped := f.get("ws1", GetRequest{FolderID: "f1", GroupByDocumentID: true}).Data.(map[string][]AnnotationView)
	if len(grouped) != 2 || len(grouped["doc1"]) != 1 || len(grouped["doc3"]) != 0 {
		t.Errorf("grouped: %v", grouped)
	}
}

// Without svc-identity, or when it refuses, get by folder fails with its
// status and never falls back to the organization's annotations.
func TestGetByFolderFailsWithoutFolders(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "a1", comment("alice", "x"))
	if _, err := f.svc.Get(t.Context(), "ws1", GetRequest{OrganizationID: "org1", FolderID: "f1"}); !api.IsStatus(err, api.Unavailable) {
		t.Fatalf("no lister: %v, want UNAVAILABLE", err)
	}
	f.svc.WithFolders(&folders{err: api.Errorf(api.FailedPrecondition, "folder f1 holds more than 10000 documents")})
	if _, err := f.svc.Get(t.Context(), "ws1", GetRequest{OrganizationID: "org1", FolderID: "f1"}); !api.IsStatus(err, api.FailedPrecondition) {
		t.Fatalf("lister refused: %v, want its FAILED_PRECONDITION", err)
	}
}
