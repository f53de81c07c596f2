package annotations_test

import (
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

func TestAddStoresAnnotationsAndReportsEachItem(t *testing.T) {
	f := newFixture(t)
	res, err := f.svc.Add(t.Context(), "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc1",
		CommentAnnotations: []AnnotationInput{
			{AnnotationID: "a1", Location: map[string]any{"id": "loc1", "locationName": "Intro"},
				AssignedTo:  user("carol"),
				CommentData: []CommentInput{comment("alice", "hi {{bob}}"), {CommentID: ptr(int64(10)), From: user("bob"), CommentText: "yes"}}},
			{CommentData: []CommentInput{comment("bob", "second")}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	first := res["a1"]
	var second AddItemResult
	for k, v := range res {
		if k != "a1" {
			if k != v.AnnotationID || strings.HasPrefix(k, ReservedPrefix) {
				t.Fatalf("generated item keyed %q, not by its id %q", k, v.AnnotationID)
			}
			second = v
		}
	}
	if !first.Success || first.AnnotationID != "a1" || !slices.Equal(first.CommentIDs, []int64{1, 10}) {
		t.Fatalf("a1 result = %+v", first)
	}
	if !second.Success || !strings.HasPrefix(second.AnnotationID, "ann_") || !slices.Equal(second.CommentIDs, []int64{1}) {
		t.Fatalf("generated result = %+v (keys %v)", second, res)
	}

	a := f.one("ws1", "a1")
	if a.AnnotationNumber != 1 || f.one("ws1", second.AnnotationID).AnnotationNumber != 2 {
		t.Fatalf("annotation numbers: %d", a.AnnotationNumber)
	}
	if a.Status["id"] != "OPEN" || a.Type != "comment" || a.SourceType != "rest-api" || UserID(a.From) != "alice" {
		t.Fatalf("defaults: %+v", a)
	}
	if a.LocationID == nil || a.Location["locationName"] != "Intro" {
		t.Fatalf("location: %+v %v", a.Location, a.LocationID)
	}
	if got := UserIDs(a.Comments[0].To); !slices.Equal(got, []string{"bob"}) {
		t.Fatalf("mentions of the root comment = %v", got)
	}
	if !slices.Equal(a.MentionedUserIDs, []string{"bob"}) || !slices.Equal(a.InvolvedUserIDs, []string{"alice", "bob", "carol"}) {
		t.Fatalf("mentioned %v involved %v", a.MentionedUserIDs, a.InvolvedUserIDs)
	}
	if a.Comments[0].LastUpdated == "" || !strings.HasSuffix(a.Comments[0].LastUpdated, "Z") {
		t.Fatalf("comment lastUpdated must be ISO: %q", a.Comments[0].LastUpdated)
	}
	if a.From["initial"] != "U" {
		t.Fatalf("initial not derived: %v", a.From)
	}
	if got := f.rec.Types(); !slices.Equal(got, []string{EventAnnotationAdd, EventAnnotationAdd}) {
		t.Fatalf("events = %v", got)
	}
}

func TestAddRefusesInvalidInputAndWritesNothing(t *testing.T) {
	okStatus := map[string]any{"id": "OPEN", "name": "Open", "type": "default", "color": "#fff", "lightColor": "#eee", "svg": "<svg/>"}
	item := func(mod func(*AnnotationInput)) AddRequest {
		in := AnnotationInput{AnnotationID: "a1", CommentData: []CommentInput{comment("alice", "x")}, Status: okStatus}
		mod(&in)
		return AddRequest{OrganizationID: "org1", DocumentID: "doc1", CommentAnnotations: []AnnotationInput{in}}
	}
	tests := []struct {
		name string
		req  AddRequest
		want string
	}{
		{"no annotations", AddRequest{OrganizationID: "org1", DocumentID: "doc1"}, "commentAnnotations"},
		{"colon in id", item(func(in *AnnotationInput) { in.AnnotationID = "a:1" }), "must not contain ':'"},
		{"reserved prefix", item(func(in *AnnotationInput) { in.AnnotationID = "__svc_x" }), "reserved prefix"},
		{"no comments", item(func(in *AnnotationInput) { in.CommentData = nil }), "commentData is required"},
		{"no author id", item(func(in *AnnotationInput) { in.CommentData[0].From = User{"name": "x"} }), "from.userId"},
		{"status without colours", item(func(in *AnnotationInput) { in.Status = map[string]any{"id": "X", "name": "X", "type": "default"} }), "status.color"},
		{"status type unknown", item(func(in *AnnotationInput) {
			in.Status = map[string]any{"id": "X", "name": "X", "type": "weird"}
		}), "status.type"},
		{"restricted without users", item(func(in *AnnotationInput) { in.Visibility = &VisibilityInput{Type: "restricted"} }), "visibility.userIds"},
		{"org private without org", item(func(in *AnnotationInput) { in.Visibility = &VisibilityInput{Type: "organizationPrivate"} }), "visibility.organizationId"},
		{"agent comment", item(func(in *AnnotationInput) { in.CommentData[0].Agent = map[string]any{"agentId": "x"} }), "agent"},
		{"tagged contact without contact", item(func(in *AnnotationInput) {
			in.CommentData[0].TaggedUserContacts = []map[string]any{{"userId": "bob"}}
		}), "contact"},
		{"duplicate comment ids", item(func(in *AnnotationInput) {
			in.CommentData = []CommentInput{{CommentID: ptr(int64(3)), From: user("a")}, {CommentID: ptr(int64(3)), From: user("b")}}
		}), "appears twice"},
		{"duplicate annotation ids", AddRequest{OrganizationID: "org1", DocumentID: "doc1", CommentAnnotations: []AnnotationInput{
			{AnnotationID: "same", CommentData: []CommentInput{comment("a", "x")}},
			{AnnotationID: "same", CommentData: []CommentInput{comment("a", "y")}},
		}}, "appears twice"},
	}
	f := newFixture(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Add(t.Context(), "ws1", tt.req)
			if !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT containing %q", err, tt.want)
			}
		})
	}
	if n := f.count(store.AnnotationsCollection, bson.M{}); n != 0 {
		t.Fatalf("%d annotations written by refused requests", n)
	}
	if n := f.count(store.CountersCollection, bson.M{}); n != 0 {
		t.Fatalf("%d counters written by refused requests", n)
	}
	if len(f.rec.Types()) != 0 {
		t.Fatalf("events published: %v", f.rec.Types())
	}
}

func TestAddExistingAnnotationIDFailsAloneInsideSuccess(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "a1", comment("alice", "first"))
	res, err := f.svc.Add(t.Context(), "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc1",
		CommentAnnotations: []AnnotationInput{
			{AnnotationID: "a1", CommentData: []CommentInput{comment("bob", "again")}},
			{AnnotationID: "a2", CommentData: []CommentInput{comment("bob", "new")}},
		}})
	if err != nil {
		t.Fatal(err)
	}
	if res["a1"].Success || res["a1"].Message == "" || !res["a2"].Success {
		t.Fatalf("results = %+v", res)
	}
	if got := f.one("ws1", "a1").Comments[0].CommentText; got != "first" {
		t.Fatalf("existing annotation overwritten: %q", got)
	}
}

func TestSuggestionAndVisibility(t *testing.T) {
	f := newFixture(t)
	_, err := f.svc.Add(t.Context(), "ws1", AddRequest{OrganizationID: "org1", DocumentID: "doc1",
		CommentAnnotations: []AnnotationInput{{AnnotationID: "s1", Type: "suggestion",
			Suggestion:  map[string]any{"status": "accepted", "newValue": "b"},
			Visibility:  &VisibilityInput{Type: "restricted", UserIDs: []string{"bob"}},
			CommentData: []CommentInput{comment("alice", "try this")}}}})
	if err != nil {
		t.Fatal(err)
	}
	a := f.one("ws1", "s1")
	if a.Suggestion["status"] != "pending" || a.Suggestion["newValue"] != "b" {
		t.Fatalf("suggestion = %v", a.Suggestion)
	}
	if ids, _ := a.VisibilityConfig["userIds"].(bson.A); len(ids) != 2 {
		t.Fatalf("visibility must include the author: %v", a.VisibilityConfig)
	}
}
