package annotations_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	. "github.com/opencollab/backend/svc-content/internal/annotations"
)

func (f *fixture) renameUsers(filters Filters, data string, renames ...map[string]any) (map[string]ItemResult, error) {
	return f.svc.Update(f.t.Context(), "ws1", UpdateRequest{OrganizationID: "org1", DocumentID: "doc1",
		AnnotationIDs: filters.AnnotationIDs, LocationIDs: filters.LocationIDs, UserIDs: filters.UserIDs,
		UpdatedData: json.RawMessage(data), UpdateUsers: renames})
}

func rename(from, to string, profile ...string) map[string]any {
	newUser := map[string]any{"userId": to}
	if len(profile) == 2 {
		newUser["name"], newUser["email"] = profile[0], profile[1]
	}
	return map[string]any{"oldUser": map[string]any{"userId": from}, "newUser": newUser}
}

// Every place an annotation names a user follows the rename: the creator,
// comment authors, mentions (in the list and in the text), tagged
// contacts, the assignee, who resolved it, who set its status and its
// reactions; the derived id lists and the filters on them too.
func TestUpdateUsersRewritesEveryReference(t *testing.T) {
	f := newFixture(t)
	tagged := comment("bob", "ping {{alice}} and {{carol}}")
	tagged.TaggedUserContacts = []map[string]any{{"userId": "alice", "contact": map[string]any{"userId": "alice", "name": "Alice", "photoUrl": "p.png"}}}
	f.add("ws1", "doc1", "a1", comment("alice", "first"), tagged)
	f.add("ws1", "doc1", "a2", comment("carol", "untouched"))
	if _, err := f.update("ws1", Filters{AnnotationIDs: []string{"a1"}},
		`{"assignedTo":{"userId":"alice","name":"Alice"},"status":{"id":"R","name":"Resolved","type":"terminal"},"resolvedByUserId":"alice","statusUpdatedByUserId":"alice"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.AddReaction(t.Context(), "ws1", ReactionAddRequest{OrganizationID: "org1", DocumentID: "doc1",
		AnnotationID: "a1", Icon: "👍", User: user("alice")}); err != nil {
		t.Fatal(err)
	}
	f.rec.Reset()

	res, err := f.renameUsers(Filters{}, "", rename("alice", "al", "Al Smith", "al@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	if !res["a1"].Success || res["a1"].Message != "Annotation updated." || !res["a2"].Success || !strings.Contains(res["a2"].Message, "unchanged") {
		t.Fatalf("results = %+v", res)
	}
	a := f.one("ws1", "a1")
	renamed := func(what string, u User) {
		t.Helper()
		if u["userId"] != "al" || u["name"] != "Al Smith" || u["email"] != "al@example.com" || u["initial"] != "A" {
			t.Errorf("%s = %v, want the new user", what, u)
		}
	}
	renamed("from", a.From)
	renamed("comments[0].from", a.Comments[0].From)
	renamed("assignedTo", a.AssignedTo)
	renamed("resolvedByUser", a.ResolvedByUser)
	renamed("reaction user", a.ReactionAnnotations[0].FromUsers[0].From)
	if a.ResolvedByUserID != "al" || a.StatusUpdatedByUserID != "al" {
		t.Errorf("ids: resolvedBy %q, statusUpdatedBy %q", a.ResolvedByUserID, a.StatusUpdatedByUserID)
	}
	c := a.Comments[1]
	if UserID(c.From) != "bob" || c.CommentText != "ping {{al}} and {{carol}}" || c.CommentHTML != "<p>ping {{al}} and {{carol}}</p>" {
		t.Errorf("comment by bob: from %v, text %q, html %q", c.From, c.CommentText, c.CommentHTML)
	}
	tc := c.TaggedUserContacts[0]
	contact := tc["contact"].(map[string]any)
	if tc["userId"] != "al" || contact["userId"] != "al" || contact["name"] != "Al Smith" || contact["photoUrl"] != "p.png" {
		t.Errorf("tagged contact = %v (the rename keeps fields it does not give)", tc)
	}
	var mentioned []string
	for _, u := range c.To {
		mentioned = append(mentioned, UserID(u))
	}
	if !slices.Equal(mentioned, []string{"al", "carol"}) {
		t.Errorf("to = %v", mentioned)
	}
	if slices.Contains(a.InvolvedUserIDs, "alice") || !slices.Contains(a.InvolvedUserIDs, "al") || slices.Contains(a.MentionedUserIDs, "alice") {
		t.Errorf("derived ids: involved %v, mentioned %v", a.InvolvedUserIDs, a.MentionedUserIDs)
	}
	if b := f.one("ws1", "a2"); UserID(b.From) != "carol" || b.LastUpdated != b.CreatedAt {
		t.Errorf("an annotation without the user was written: %+v", b)
	}
	for _, q := range []GetRequest{{UserIDs: []string{"al"}}, {MentionedUserIDs: []string{"al"}}} {
		if got := f.get("ws1", q).Data.([]*AnnotationView); len(got) != 1 || got[0].AnnotationID != "a1" {
			t.Errorf("get %+v after the rename: %d annotations", q, len(got))
		}
	}
	if got := f.get("ws1", GetRequest{UserIDs: []string{"alice"}}).Data.([]*AnnotationView); len(got) != 0 {
		t.Errorf("the old creator still matches %d annotations", len(got))
	}
	for uid, want := range map[string][2]int{"al": {2, 1}, "alice": {0, 0}} {
		page, err := f.svc.UserData(t.Context(), UserDataQuery{WorkspaceID: "ws1", OrganizationID: "org1", UserID: uid})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Comments) != want[0] || len(page.Reactions) != want[1] {
			t.Errorf("users/data of %s: %d comments, %d reactions; want %v", uid, len(page.Comments), len(page.Reactions), want)
		}
	}
	if got := f.rec.Types(); !slices.Equal(got, []string{EventAnnotationUpdate}) {
		t.Errorf("events = %v (one update, none for the unchanged annotation)", got)
	}
}

// Renames apply side by side (a swap swaps), a rename to the same id
// updates the profile, and updatedData is applied before the renames.
func TestUpdateUsersSwapsAndUpdatesProfiles(t *testing.T) {
	f := newFixture(t)
	f.add("ws1", "doc1", "a1", comment("alice", "x"), comment("bob", "y"))
	res, err := f.renameUsers(Filters{AnnotationIDs: []string{"a1"}}, `{"assignedTo":{"userId":"alice"}}`,
		rename("alice", "bob"), rename("bob", "alice", "Alice B", "ab@example.com"))
	if err != nil || !res["a1"].Success {
		t.Fatalf("%+v %v", res, err)
	}
	a := f.one("ws1", "a1")
	if UserID(a.Comments[0].From) != "bob" || UserID(a.Comments[1].From) != "alice" || a.Comments[1].From["name"] != "Alice B" {
		t.Fatalf("swap: %v, %v", a.Comments[0].From, a.Comments[1].From)
	}
	if a.Comments[0].From["name"] != "User alice" {
		t.Errorf("a rename without a name keeps the reference's: %v", a.Comments[0].From)
	}
	if UserID(a.AssignedTo) != "bob" {
		t.Errorf("assignee set by updatedData must be renamed too: %v", a.AssignedTo)
	}
	if _, err := f.renameUsers(Filters{}, "", rename("alice", "alice", "Alice C", "ac@example.com")); err != nil {
		t.Fatal(err)
	}
	if u := f.one("ws1", "a1").Comments[1].From; u["name"] != "Alice C" || u["email"] != "ac@example.com" || u["initial"] != "A" {
		t.Fatalf("profile update: %v", u)
	}
}
