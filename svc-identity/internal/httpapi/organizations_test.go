package httpapi_test

import (
	"testing"
)

func TestOrganizationsLifecycle(t *testing.T) {
	e := newEnv(t)
	r := e.ok("ws1", "/v2/organizations/add", map[string]any{"organizations": []any{
		map[string]any{"organizationId": "o1", "organizationName": "Acme", "plan": "gold", "id": "ignored"},
		map[string]any{"organizationId": "o2"},
	}})
	o1 := r.item("o1")
	if o1["success"] != true || len(o1["id"].(string)) != 32 || o1["message"] != "Organization added." {
		t.Fatalf("o1 = %v", o1)
	}
	// Adding again updates (upsert) and merges metadata.
	r = e.ok("ws1", "/v2/organizations/add", map[string]any{"organizations": []any{
		map[string]any{"organizationId": "o1", "region": "eu"},
	}})
	if r.item("o1")["message"] != "Organization updated." || r.item("o1")["id"] != o1["id"] {
		t.Fatalf("re-add = %v", r.item("o1"))
	}

	got := e.ok("ws1", "/v2/organizations/get", map[string]any{"organizationIds": []string{"o1", "missing"}})
	items := got.data().([]any)
	if len(items) != 1 {
		t.Fatalf("items = %v", items)
	}
	item := items[0].(map[string]any)
	if item["id"] != "o1" || item["organizationName"] != "Acme" || item["disabled"] != false ||
		item["plan"] != "gold" || item["region"] != "eu" || item["createdAt"] == nil || item["lastUpdated"] == nil {
		t.Fatalf("item = %v", item)
	}
	if tok, present := got.result()["nextPageToken"]; !present || tok != nil {
		t.Fatalf("nextPageToken = %v (present %v), want null", tok, present)
	}

	r = e.ok("ws1", "/v2/organizations/update", map[string]any{"organizations": []any{
		map[string]any{"organizationId": "o1", "disabled": true}, map[string]any{"organizationId": "ghost"},
	}})
	if r.item("o1")["success"] != true || r.item("ghost")["success"] != false {
		t.Fatalf("update = %v", r.dataMap())
	}
	if got := e.ok("ws1", "/v2/organizations/get", map[string]any{"organizationIds": []string{"o1"}}); got.data().([]any)[0].(map[string]any)["disabled"] != true {
		t.Fatalf("disabled not set: %v", got.raw)
	}

	e.addUsers("ws1", map[string]any{"organizationId": "o1", "documentId": "d1"}, "u1")
	r = e.ok("ws1", "/v2/organizations/delete", map[string]any{"organizationIds": []string{"o1", "ghost"}})
	if r.item("o1")["success"] != true || r.item("ghost")["success"] != false {
		t.Fatalf("delete = %v", r.dataMap())
	}
	counts := e.records()
	for name, n := range counts {
		if name != "organizations" && name != "users" && n != 0 {
			t.Errorf("%s keeps %d records after the organization was deleted", name, n)
		}
	}
	if counts["organizations"] != 1 {
		t.Errorf("organizations left = %d, want 1 (o2)", counts["organizations"])
	}
}

func TestGetOrganizationsPages(t *testing.T) {
	e := newEnv(t)
	var orgs []any
	for _, id := range []string{"c", "a", "e", "b", "d"} {
		orgs = append(orgs, map[string]any{"organizationId": id})
	}
	e.ok("ws1", "/v2/organizations/add", map[string]any{"organizations": orgs})
	var ids []string
	q := map[string]any{"pageSize": 2}
	for range 4 {
		r := e.ok("ws1", "/v2/organizations/get", q)
		for _, it := range r.data().([]any) {
			ids = append(ids, it.(map[string]any)["id"].(string))
		}
		if r.result()["nextPageToken"] == nil {
			break
		}
		q["pageToken"] = r.result()["nextPageToken"]
	}
	if got := ids; len(got) != 5 || got[0] != "a" || got[4] != "e" {
		t.Fatalf("ids = %v", got)
	}
	e.fails("ws1", "/v2/organizations/get", map[string]any{"organizationIds": make([]string, 31)}, "INVALID_ARGUMENT")
	// No body needed: all organizations.
	if r := e.ok("ws1", "/v2/organizations/get", `{"data":{}}`); len(r.data().([]any)) != 5 {
		t.Fatalf("all = %s", r.raw)
	}
}
