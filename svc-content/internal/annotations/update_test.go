package annotations_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/api"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

func (f *fixture) update(ws string, filters Filters, data string) (map[string]ItemResult, error) {
	return f.svc.Update(f.t.Context(), ws, UpdateRequest{OrganizationID: "org1", DocumentID: "doc1",
		AnnotationIDs: filters.AnnotationIDs, LocationIDs: filters.LocationIDs, UserIDs: filters.UserIDs,
		UpdatedData: json.RawMessage(data)})
}

func TestUpdateStatusResolvesAndReopens(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "a1", comment("alice", "x"))
	f.add("ws1", "doc1", "a2", comment("bob", "y"))
	f.rec.Reset()

	res, err := f.update("ws1", Filters{AnnotationIDs: []string{"a1", "nope"}},
		`{"status":{"id":"RESOLVED","name":"Resolved","type":"terminal"},"resolvedByUserId":"alice","statusUpdatedByUserId":"alice"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !res["a1"].Success || res["a1"].ID != "a1" || res["nope"].Success || len(res) != 2 {
		t.Fatalf("results = %+v", res)
	}
	a := f.one("ws1", "a1")
	if a.Status["id"] != "RESOLVED" || a.ResolvedByUserID != "alice" || a.ResolvedByUser["email"] != "alice@example.com" {
		t.Fatalf("resolved: %+v", a)
	}
	if f.one("ws1", "a2").Status["id"] != "OPEN" {
		t.Fatal("update touched an annotation outside the filter")
	}
	if got := f.rec.Types(); !slices.Equal(got, []string{EventStatusChange}) {
		t.Fatalf("events = %v", got)
	}
	ev := eventData(t, f.rec, 0)
	if ev["oldStatus"].(map[string]any)["id"] != "OPEN" || ev["newStatus"].(map[string]any)["id"] != "RESOLVED" ||
		ev["actionUser"].(map[string]any)["userId"] != "alice" {
		t.Fatalf("status event data = %v", ev)
	}

	if _, err := f.update("ws1", Filters{AnnotationIDs: []string{"a1"}}, `[{"status":{"id":"OPEN","name":"Open","type":"default"}}]`); err != nil {
		t.Fatal(err)
	}
	a = f.one("ws1", "a1")
	if a.ResolvedByUserID != "" || a.ResolvedByUser != nil || a.StatusUpdatedByUserID != "alice" {
		t.Fatalf("a non-terminal status must clear resolvedBy and keep statusUpdatedBy: %+v", a)
	}

	if _, err := f.update("ws1", Filters{UserIDs: []string{"bob"}}, `{"priority":{"id":"P1","name":"High"},"assignedTo":{"userId":"dave"}}`); err != nil {
		t.Fatal(err)
	}
	b := f.one("ws1", "a2")
	if b.Priority["id"] != "P1" || UserID(b.AssignedTo) != "dave" || !slices.Contains(b.InvolvedUserIDs, "dave") {
		t.Fatalf("priority/assignee: %+v", b)
	}
	if got := f.rec.Types(); got[len(got)-1] != EventAnnotationUpdate {
		t.Fatalf("events = %v", got)
	}
}

func TestUpdateResolvedByNullClears(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "a1", comment("alice", "x"))
	if _, err := f.update("ws1", Filters{AnnotationIDs: []string{"a1"}}, `{"status":{"id":"RESOLVED","name":"R","type":"terminal"},"resolvedByUserId":"bob"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.update("ws1", Filters{AnnotationIDs: []string{"a1"}}, `{"resolvedByUserId":null}`); err != nil {
		t.Fatal(err)
	}
	if a := f.one("ws1", "a1"); a.ResolvedByUserID != "" || a.Status["id"] != "RESOLVED" {
		t.Fatalf("null must clear only resolvedBy: %+v", a)
	}
}

func TestUpdateRefusesAndWritesNothing(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "a1", comment("alice", "x"))
	before := f.one("ws1", "a1").LastUpdated
	f.rec.Reset()
	a1 := Filters{AnnotationIDs: []string{"a1"}}
	users := func(renames ...map[string]any) []map[string]any { return renames }
	for name, tc := range map[string]struct {
		filters Filters
		data    string
		renames []map[string]any
		want    string
	}{
		"no filter":          {Filters{}, `{"priority":{"id":"P","name":"P"}}`, nil, "annotationIds, locationIds or userIds"},
		"nothing to update":  {a1, `{}`, nil, "nothing to update"},
		"bad status":         {a1, `{"status":{"id":"X"}}`, nil, "status.name"},
		"wrong type":         {a1, `{"context":"x"}`, nil, "updatedData.context"},
		"two objects":        {a1, `[{},{}]`, nil, "one object"},
		"resolvedBy number":  {a1, `{"resolvedByUserId":5}`, nil, "resolvedByUserId"},
		"suggestion status":  {a1, `{"suggestion":{"status":"bogus"}}`, nil, "suggestion.status"},
		"updatedData string": {a1, `"x"`, nil, "updatedData"},
		"neither":            {a1, "", nil, "updatedData is required (or updateUsers)"},
		"data needs filter":  {Filters{}, `{"priority":{"id":"P","name":"P"}}`, users(rename("alice", "al")), "annotationIds, locationIds or userIds"},
		"no old user":        {Filters{}, "", users(map[string]any{"newUser": map[string]any{"userId": "al"}}), "updateUsers[0].oldUser is required"},
		"blank new id":       {Filters{}, "", users(map[string]any{"oldUser": map[string]any{"userId": "alice"}, "newUser": map[string]any{"userId": " "}}), "updateUsers[0].newUser.userId"},
		"name not a string":  {Filters{}, "", users(map[string]any{"oldUser": map[string]any{"userId": "alice"}, "newUser": map[string]any{"userId": "al", "name": 5}}), "updateUsers[0].newUser.name"},
		"renamed twice":      {Filters{}, "", users(rename("alice", "al"), rename("alice", "ally")), "updateUsers[1].oldUser.userId"},
		"bad data, good map": {a1, `{"status":{"id":"X"}}`, users(rename("alice", "al")), "status.name"},
	} {
		_, err := f.renameUsers(tc.filters, tc.data, tc.renames...)
		if !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want INVALID_ARGUMENT containing %q", name, err, tc.want)
		}
	}
	if a := f.one("ws1", "a1"); a.LastUpdated != before || UserID(a.From) != "alice" || len(f.rec.Types()) != 0 {
		t.Fatal("a refused update changed the annotation or published")
	}
	res, err := f.update("ws1", a1, `{"suggestion":{"status":"accepted"}}`)
	if err != nil || res["a1"].Success || !strings.Contains(res["a1"].Message, "not a suggestion") {
		t.Fatalf("suggestion on a comment annotation: %+v %v", res, err)
	}
}

func TestDeleteByFiltersAndWholeDocument(t *testing.T) {
	f := newFixture(t)
	for _, id := range []string{"a1", "a2", "a3"} {
		f.add("ws1", "doc1", id, comment("alice", "x {{bob}}"))
	}
	f.add("ws1", "doc2", "b1", comment("alice", "other document"))
	f.rec.Reset()
	if n := f.count(store.FeedRowsCollection, bson.M{"_id": bson.M{"$regex": `^r\["ws1","a1"`}}); n != 2 {
		t.Fatalf("a1 has %d feed rows, want 2", n)
	}

	res, err := f.svc.Delete(t.Context(), "ws1", DeleteRequest{OrganizationID: "org1", DocumentID: "doc1", AnnotationIDs: []string{"a1", "nope", "b1"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res["a1"].Success || res["nope"].Success || res["b1"].Success || len(res) != 3 {
		t.Fatalf("results = %+v", res)
	}
	if n := f.count(store.FeedRowsCollection, bson.M{"_id": bson.M{"$regex": `^r\["ws1","a1"`}}); n != 0 {
		t.Fatalf("%d feed rows left for a deleted annotation", n)
	}
	if n := f.count(store.FeedRowsCollection, bson.M{}); n != 5 {
		t.Fatalf("%d feed rows, want 2 for a2 and a3 (author, mention) and 1 for b1", n)
	}
	res, err = f.svc.Delete(t.Context(), "ws1", DeleteRequest{DocumentID: "doc1"})
	if err != nil || len(res) != 2 || !res["a2"].Success || !res["a3"].Success {
		t.Fatalf("whole document: %+v %v", res, err)
	}
	if got := ids(f.get("ws1", GetRequest{}).Data.([]*AnnotationView)); !slices.Equal(got, []string{"b1"}) {
		t.Fatalf("left: %v", got)
	}
	if got := f.rec.Types(); len(got) != 3 || got[0] != EventAnnotationDelete {
		t.Fatalf("events = %v", got)
	}
	if _, err := f.svc.Delete(t.Context(), "ws1", DeleteRequest{DocumentID: "doc2", AgentURLs: []string{"u"}}); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("agent filter: %v", err)
	}
	if f.count(store.AnnotationsCollection, bson.M{}) != 1 {
		t.Fatal("refused delete removed data")
	}
}
