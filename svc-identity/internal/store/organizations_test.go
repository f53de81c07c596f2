package store_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

func TestOrganizationMetadataMergesAndReadsBackAsJSON(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	name := "Acme"
	in := identity.OrganizationInput{ID: "o1", Name: &name, Metadata: map[string]any{
		"plan": "gold", "seats": int64(3), "address": map[string]any{"city": "Oslo"}, "tags": []any{"a", "b"},
	}}
	if created, err := s.SaveOrganization(ctx, "ws1", in, 10); err != nil || !created {
		t.Fatalf("SaveOrganization = %v, %v; want created", created, err)
	}
	again := identity.OrganizationInput{ID: "o1", Metadata: map[string]any{"plan": "platinum"}}
	if created, err := s.SaveOrganization(ctx, "ws1", again, 20); err != nil || created {
		t.Fatalf("second SaveOrganization = %v, %v; want updated", created, err)
	}
	got, err := s.GetOrganization(ctx, "ws1", "o1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"plan": "platinum", "seats": int64(3), "address": map[string]any{"city": "Oslo"}, "tags": []any{"a", "b"},
	}
	if got.Name != "Acme" || got.CreatedAt != 10 || got.LastUpdated != 20 {
		t.Fatalf("org = %+v", got)
	}
	// Nested values must come back as plain maps and slices, which encode
	// to JSON objects and arrays.
	if !reflect.DeepEqual(normalise(got.Metadata), want) {
		t.Fatalf("metadata = %#v\nwant %#v", got.Metadata, want)
	}
}

// normalise turns BSON arrays (bson.A) into []any for comparison.
func normalise(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
			items := make([]any, rv.Len())
			for i := range items {
				items[i] = rv.Index(i).Interface()
			}
			v = items
		}
		out[k] = v
	}
	return out
}

func TestListOrganizationsPagesByID(t *testing.T) {
	s := newStore(t)
	for _, id := range []string{"o5", "o1", "o4", "o2", "o3"} {
		if err := s.EnsureOrganization(t.Context(), "ws1", id, 1); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	q := identity.OrganizationQuery{Limit: 2}
	for range 5 {
		orgs, err := s.ListOrganizations(t.Context(), "ws1", q)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range orgs {
			got = append(got, o.ID)
		}
		if len(orgs) < q.Limit {
			break
		}
		q.After = orgs[len(orgs)-1].ID
	}
	if want := []string{"o1", "o2", "o3", "o4", "o5"}; !slices.Equal(got, want) {
		t.Fatalf("ids = %v, want %v", got, want)
	}
	orgs, _ := s.ListOrganizations(t.Context(), "ws1", identity.OrganizationQuery{IDs: []string{"o4", "o2", "x"}, Limit: 10})
	if len(orgs) != 2 || orgs[0].ID != "o2" || orgs[1].ID != "o4" {
		t.Fatalf("by ids = %+v", orgs)
	}
}

func TestDeleteOrganizationRemovesEverythingInIt(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	for _, ws := range []string{"ws1", "ws2"} {
		if err := s.EnsureOrganization(ctx, ws, "o1", 1); err != nil {
			t.Fatal(err)
		}
		if err := s.EnsureFolder(ctx, ws, identity.Folder{OrganizationID: "o1", ID: "f1", ParentID: "root", Ancestors: []string{"root"}}); err != nil {
			t.Fatal(err)
		}
		if err := s.EnsureDocument(ctx, ws, identity.Document{OrganizationID: "o1", ID: "d1"}); err != nil {
			t.Fatal(err)
		}
		mustSave(t, s, ws, docMember("d1", "u1"))
		if _, err := s.SaveGroups(ctx, ws, []identity.Group{{OrganizationID: "o1", ID: "g1"}}, 1); err != nil {
			t.Fatal(err)
		}
		if err := s.AddGroupMembers(ctx, ws, "o1", "g1", []string{"u2"}, 1); err != nil {
			t.Fatal(err)
		}
	}
	if found, err := s.DeleteOrganizations(ctx, "ws1", []string{"missing", "o1"}); err != nil || !slices.Equal(found, []string{"o1"}) {
		t.Fatalf("DeleteOrganizations = %v, %v; want [o1]", found, err)
	}
	if _, err := s.GetFolder(ctx, "ws1", "o1", "f1"); err != identity.ErrNotFound {
		t.Fatalf("folder survived: %v", err)
	}
	if _, err := s.GetDocument(ctx, "ws1", "o1", "d1"); err != identity.ErrNotFound {
		t.Fatalf("document survived: %v", err)
	}
	if ok, _ := s.GroupExists(ctx, "ws1", "o1", "g1"); ok {
		t.Fatal("group survived")
	}
	if ok, _ := s.IsOrganizationMember(ctx, "ws1", "o1", "u1"); ok {
		t.Fatal("membership survived")
	}
	if members, _ := s.ListGroupMembers(ctx, "ws1", "o1", []string{"g1"}); len(members) > 0 {
		t.Fatalf("group members survived: %v", members)
	}
	if _, err := s.GetDocument(ctx, "ws2", "o1", "d1"); err != nil {
		t.Fatalf("other workspace lost its document: %v", err)
	}
	if found, err := s.DeleteOrganizations(ctx, "ws1", []string{"o1"}); err != nil || len(found) > 0 {
		t.Fatalf("deleting again = %v, %v; want nothing found", found, err)
	}
}
