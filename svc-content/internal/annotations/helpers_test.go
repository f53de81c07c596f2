package annotations_test

import (
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/events/eventstest"
	"github.com/opencollab/backend/pkg/pagetoken"
	"github.com/opencollab/backend/pkg/testenv"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/store"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// eventData decodes the data of the i-th event rec was given.
func eventData(t *testing.T, rec *eventstest.Recorder, i int) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Events()[i].Data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

type fixture struct {
	t   *testing.T
	db  *mongo.Database
	svc *Service
	rec *eventstest.Recorder
}

// newFixture is the service on a fresh database with Redis page tokens and
// a clock that moves 1 ms per reading, so every write has its own time.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureOn(t, testenv.Mongo(t))
}

// newFixtureOn is newFixture on db.
func newFixtureOn(t *testing.T, db *mongo.Database) *fixture {
	t.Helper()
	rec := &eventstest.Recorder{}
	svc := NewService(store.New(db), rec).WithPageTokens(pagetoken.New(testenv.Redis(t), 0))
	var tick atomic.Int64
	start := time.UnixMilli(1_700_000_000_000)
	svc.SetClock(func() time.Time { return start.Add(time.Duration(tick.Add(1)) * time.Millisecond) })
	if err := svc.EnsureIndexes(t.Context()); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, db: db, svc: svc, rec: rec}
}

func user(id string) User {
	return User{"userId": id, "name": "User " + id, "email": id + "@example.com"}
}

func comment(from, text string) CommentInput {
	return CommentInput{From: user(from), CommentText: text, CommentHTML: "<p>" + text + "</p>"}
}

// add stores one annotation with the given comments and returns its id.
func (f *fixture) add(ws, doc, id string, comments ...CommentInput) string {
	f.t.Helper()
	res, err := f.svc.Add(f.t.Context(), ws, AddRequest{OrganizationID: "org1", DocumentID: doc,
		CommentAnnotations: []AnnotationInput{{AnnotationID: id, CommentData: comments}}})
	if err != nil {
		f.t.Fatal(err)
	}
	for _, r := range res {
		if !r.Success {
			f.t.Fatalf("add %s: %+v", id, r)
		}
		return r.AnnotationID
	}
	f.t.Fatal("add: empty result")
	return ""
}

func (f *fixture) count(coll string, filter bson.M) int64 {
	f.t.Helper()
	n, err := f.db.Collection(coll).CountDocuments(f.t.Context(), filter)
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

func (f *fixture) get(ws string, req GetRequest) GetResult {
	f.t.Helper()
	if req.OrganizationID == "" {
		req.OrganizationID = "org1"
	}
	res, err := f.svc.Get(f.t.Context(), ws, req)
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

func (f *fixture) one(ws, id string) *AnnotationView {
	f.t.Helper()
	list := f.get(ws, GetRequest{AnnotationIDs: []string{id}}).Data.([]*AnnotationView)
	if len(list) != 1 || list[0] == nil {
		f.t.Fatalf("annotation %s: got %d entries", id, len(list))
	}
	return list[0]
}

func ptr[T any](v T) *T { return &v }
