package e2e

import (
	"slices"
	"strings"
	"testing"
)

func TestDocumentLocationsUpdate(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	other := s.newWorkspace()
	s.e3AddAnnotations(s.ws, org, "d1", e3AnnotationIn("a1", "loc-1", "ann", "x"), e3AnnotationIn("a2", "loc-1", "bob", "y"), e3AnnotationIn("a3", "loc-2", "ann", "z"))
	s.e3AddAnnotations(s.ws, org, "d2", e3AnnotationIn("b1", "loc-1", "ann", "elsewhere"))
	locations := func() string {
		t.Helper()
		var out []string
		for _, doc := range []string{"d1", "d2"} {
			for _, a := range objects(t, s.ok("/v2/commentannotations/get", map[string]any{"organizationId": org, "documentId": doc, "order": "asc"})) {
				out = append(out, a["annotationId"].(string)+"="+e3JSON(a["location"]))
			}
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	move := func(c creds, inBody creds, doc string, oldLoc, newLoc map[string]any, merge bool) reply {
		t.Helper()
		return s.callAs(c, "/v1/organizations/documents/locations/update", map[string]any{
			"apiKey": inBody.apiKey, "authToken": inBody.authToken, "organizationId": org, "documentId": doc,
			"migrate": map[string]any{"oldLocation": oldLoc, "newLocation": newLoc}, "merge": merge,
		})
	}
	before := locations()

	t.Run("credentials in data must be the caller's", func(t *testing.T) {
		loc1 := map[string]any{"id": "loc-1"}
		to := map[string]any{"id": "stolen"}
		for name, body := range map[string]creds{
			"another workspace's credentials": other,
			"wrong auth token":                {s.ws.apiKey, "at_wrong"},
			"another workspace's auth token":  {s.ws.apiKey, other.authToken},
			"unknown api key":                 {"ak_unknown", s.ws.authToken},
		} {
			if r := move(s.ws, body, "d1", loc1, to, true); r.Status() != "PERMISSION_DENIED" || r.Code != 403 {
				t.Errorf("%s: got %d %s", name, r.Code, r.Raw)
			}
		}
		// The other workspace with its own credentials: the location is not its.
		expectStatus(t, move(other, other, "d1", loc1, to, true), "NOT_FOUND", 404)
		for name, r := range map[string]reply{
			"without apiKey": s.call("/v1/organizations/documents/locations/update", map[string]any{"authToken": s.ws.authToken,
				"documentId": "d1", "migrate": map[string]any{"oldLocation": loc1, "newLocation": to}}),
			"without migrate": s.call("/v1/organizations/documents/locations/update", map[string]any{"apiKey": s.ws.apiKey,
				"authToken": s.ws.authToken, "documentId": "d1"}),
			"old location without id": move(s.ws, s.ws, "d1", map[string]any{"locationName": "x"}, to, true),
			"without documentId":      move(s.ws, s.ws, "", loc1, to, true),
		} {
			if r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Errorf("%s: got %d %s", name, r.Code, r.Raw)
			}
		}
		if after := locations(); after != before {
			t.Fatalf("refused updates changed locations:\n%s\n%s", before, after)
		}
	})

	t.Run("merge true merges into the stored location", func(t *testing.T) {
		r := move(s.ws, s.ws, "d1", map[string]any{"id": "loc-1"}, map[string]any{"id": "loc-1b", "version": map[string]any{"id": "v2"}}, true)
		expectOK(t, r)
		if r.Data() != nil {
			t.Fatalf("locations/update data = %s, want null", r.Raw)
		}
		want := `a1={"id":"loc-1b","locationName":"Name of loc-1","version":{"id":"v2"}} a2={"id":"loc-1b","locationName":"Name of loc-1","version":{"id":"v2"}} ` +
			`a3={"id":"loc-2","locationName":"Name of loc-2"} b1={"id":"loc-1","locationName":"Name of loc-1"}`
		if got := locations(); got != want {
			t.Fatalf("after merge:\n got %s\nwant %s", got, want)
		}
	})

	t.Run("merge false replaces the stored location", func(t *testing.T) {
		expectOK(t, move(s.ws, s.ws, "d1", map[string]any{"id": "loc-2"}, map[string]any{"id": "loc-3"}, false))
		if got := locations(); !strings.Contains(got, `a3={"id":"loc-3"} `) {
			t.Fatalf("after replace: %s", got)
		}
		if got := e3AnnotationIDs(t, s.ok("/v2/commentannotations/get", map[string]any{"organizationId": org, "locationIds": []string{"loc-3"}})); !slices.Equal(got, []string{"a3"}) {
			t.Fatalf("annotations at loc-3 = %v", got)
		}
	})

	t.Run("unknown old location", func(t *testing.T) {
		after := locations()
		expectStatus(t, move(s.ws, s.ws, "d1", map[string]any{"id": "loc-1"}, map[string]any{"id": "x"}, true), "NOT_FOUND", 404)
		expectStatus(t, move(s.ws, s.ws, "d9", map[string]any{"id": "loc-1b"}, map[string]any{"id": "x"}, true), "NOT_FOUND", 404)
		if got := locations(); got != after {
			t.Fatalf("NOT_FOUND updates changed locations:\n%s\n%s", after, got)
		}
	})
}
