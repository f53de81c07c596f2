package annotations_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
)

// monitoredFixture is a fixture whose store commands the counter keeps.
func monitoredFixture(t *testing.T) (*fixture, *testenv.CommandCounter) {
	t.Helper()
	db, counter := testenv.CountingMongo(t)
	return newFixtureOn(t, db), counter
}

// addBy adds 10 annotations of 10 comments in doc, comment j of annotation i
// by author(i, j), and returns the commands it sent ("<command> <collection>").
func addBy(f *fixture, log *testenv.CommandCounter, doc string, author func(i, j int) string) []string {
	f.t.Helper()
	req := AddRequest{OrganizationID: "org1", DocumentID: doc}
	for i := range 10 {
		in := AnnotationInput{AnnotationID: fmt.Sprintf("%s-%d", doc, i)}
		for j := range 10 {
			in.CommentData = append(in.CommentData, comment(author(i, j), "hi"))
		}
		req.CommentAnnotations = append(req.CommentAnnotations, in)
	}
	var err error
	sent := log.Record(func() { _, err = f.svc.Add(f.t.Context(), "ws1", req) })
	if err != nil {
		f.t.Fatal(err)
	}
	out := make([]string, len(sent))
	for i, c := range sent {
		out[i] = c.Name + " " + c.Collection
	}
	return out
}

// An add whose every comment has a new author (so starts a feed per
// comment) sends the same store commands as one with two authors: the new
// feeds' heads and buckets go in one insert each, not a step per feed.
func TestAddStartingManyFeedsCostsAsFewCommandsAsTwoFeeds(t *testing.T) {
	f, log := monitoredFixture(t)
	two := addBy(f, log, "two", func(_, j int) string { return fmt.Sprintf("two%d", j%2) })
	many := addBy(f, log, "many", func(i, j int) string { return fmt.Sprintf("new%d-%d", i, j) })
	if strings.Join(many, ",") != strings.Join(two, ",") {
		t.Fatalf("100 new feeds sent %d commands %v;\n2 new feeds sent %d: %v", len(many), many, len(two), two)
	}
	t.Logf("2 or 100 new feeds: %d commands each: %v", len(many), many)
	for _, uid := range []string{"new0-0", "new9-9"} {
		if comments, _, _ := f.userPages("ws1", uid); len(comments) != 1 {
			t.Errorf("%s's feed lists %v, want one comment", uid, comments)
		}
	}
	if comments, _, _ := f.userPages("ws1", "two1"); len(comments) != 50 {
		t.Errorf("two1's feed lists %d comments, want 50", len(comments))
	}
}

// Feeds that exist and feeds a request starts are written together: the
// existing ones are stepped and their buckets extended, so a user's feed
// lists every comment once, in order, across requests.
func TestAddExtendsExistingFeedsNextToNewOnes(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "first", comment("alice", "one"), comment("bob", "two"))
	f.add("ws1", "doc1", "second", comment("alice", "three"), comment("carol", "four"), comment("dave", "five"))
	for uid, want := range map[string]string{
		"alice": "first/1,second/1", "bob": "first/2", "carol": "second/2", "dave": "second/3",
	} {
		if comments, _, _ := f.userPages("ws1", uid); strings.Join(comments, ",") != want {
			t.Errorf("%s's feed = %v, want %s", uid, comments, want)
		}
	}
}
