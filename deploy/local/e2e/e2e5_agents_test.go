package e2e

import (
	"reflect"
	"slices"
	"testing"
)

// e5Builtins are the built-in agent ids, in listing order
// (adjacent-operations §12).
var e5Builtins = []string{"spell-check", "grammar-check", "broken-links", "pii-detection", "profanity-filter",
	"sensitive-data", "lighthouse", "accessibility-checker", "og-image-checker", "lorem-ipsum"}

// e5NewAgent is a valid create body.
func e5NewAgent(name string) map[string]any {
	return map[string]any{
		"name": name, "description": "Checks the brand voice", "enabled": true,
		"instructions":     "Flag copy that does not match the brand voice.",
		"contextGathering": map[string]any{"strategies": []string{"web-page-text"}},
		"execution":        map[string]any{},
		"customField":      "kept as sent",
	}
}

// e5CreateAgent creates a custom agent as c and returns its id.
func (s *stack) e5CreateAgent(c creds, name string) string {
	s.t.Helper()
	r := s.callAs(c, "/v2/agents/create", e5NewAgent(name))
	expectOK(s.t, r)
	id, _ := r.DataMap()["agentId"].(string)
	if id == "" || slices.Contains(e5Builtins, id) {
		s.t.Fatalf("create: agentId %q: %s", id, r.Raw)
	}
	return id
}

// e5Agent returns /v2/agents/get of one agent as c.
func (s *stack) e5Agent(c creds, id string) map[string]any {
	s.t.Helper()
	r := s.callAs(c, "/v2/agents/get", map[string]any{"agentId": id})
	expectOK(s.t, r)
	a, _ := r.DataMap()["agent"].(map[string]any)
	if a == nil || a["id"] != id {
		s.t.Fatalf("get %s: %s", id, r.Raw)
	}
	return a
}

// e5AgentList returns the agents of a list call as c.
func (s *stack) e5AgentList(c creds, data map[string]any) []map[string]any {
	s.t.Helper()
	r := s.callAs(c, "/v2/agents/get", data)
	expectOK(s.t, r)
	if _, has := r.Result["nextPageToken"]; !has {
		s.t.Fatalf("agent list without nextPageToken: %s", r.Raw)
	}
	list, ok := r.DataMap()["agents"].([]any)
	if !ok {
		s.t.Fatalf("agent list: %s", r.Raw)
	}
	out := make([]map[string]any, len(list))
	for i, a := range list {
		out[i], _ = a.(map[string]any)
	}
	return out
}

func e5AgentIDs(list []map[string]any) []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i], _ = a["id"].(string)
	}
	return out
}

// e5Versions returns /v2/agents/versions/list as c.
func (s *stack) e5Versions(c creds, id string) []map[string]any {
	s.t.Helper()
	r := s.callAs(c, "/v2/agents/versions/list", map[string]any{"agentId": id})
	expectOK(s.t, r)
	list, ok := r.DataMap()["versions"].([]any)
	if !ok {
		s.t.Fatalf("versions/list %s: %s", id, r.Raw)
	}
	out := make([]map[string]any, len(list))
	for i, v := range list {
		out[i], _ = v.(map[string]any)
	}
	return out
}

// e5TestAgents: every /v2/agents operation and error through the gateway.
func e5TestAgents(t *testing.T, s *stack) {
	t.Run("built-ins are present", func(t *testing.T) {
		s := s.e5For(t)
		list := s.e5AgentList(s.ws, map[string]any{"filter": "defaultOnly"})
		if ids := e5AgentIDs(list); !slices.Equal(ids, e5Builtins) {
			t.Fatalf("built-in agents %v, want %v", ids, e5Builtins)
		}
		for _, a := range list {
			if a["managedBy"] != "builtin" || a["system"] != true || a["name"] == "" || a["executionCount"] != 0.0 {
				t.Fatalf("built-in row %v", a)
			}
			if v, has := a["lastExecutedAt"]; !has || v != nil {
				t.Fatalf("built-in row without lastExecutedAt null: %v", a)
			}
		}
		a := s.e5Agent(s.ws, "pii-detection")
		if a["managedBy"] != "builtin" || a["system"] != true || a["name"] != "PII Detection" || a["enabled"] != true {
			t.Fatalf("pii-detection = %v", a)
		}
		if _, isBool := a["essentialDefault"].(bool); !isBool {
			t.Fatalf("built-in without essentialDefault: %v", a)
		}
	})

	t.Run("create and get a custom agent", func(t *testing.T) {
		s := s.e5For(t)
		id := s.e5CreateAgent(s.ws, "Brand voice")
		a := s.e5Agent(s.ws, id)
		if a["name"] != "Brand voice" || a["description"] != "Checks the brand voice" || a["enabled"] != true ||
			a["version"] != 1.0 || a["managedBy"] != "customer" || a["customField"] != "kept as sent" ||
			a["instructions"] != "Flag copy that does not match the brand voice." {
			t.Fatalf("custom agent = %v", a)
		}
		list := s.e5AgentList(s.ws, map[string]any{})
		if ids := e5AgentIDs(list); !slices.Equal(ids[:len(e5Builtins)], e5Builtins) || !slices.Contains(ids, id) {
			t.Fatalf("list = %v", ids)
		}
		custom := s.e5AgentList(s.ws, map[string]any{"filter": "customOnly"})
		if ids := e5AgentIDs(custom); !slices.Contains(ids, id) || slices.ContainsFunc(ids, func(x string) bool { return slices.Contains(e5Builtins, x) }) {
			t.Fatalf("customOnly = %v", ids)
		}
	})

	t.Run("create errors store nothing", func(t *testing.T) {
		s := s.e5For(t)
		before := len(s.e5AgentList(s.ws, map[string]any{"filter": "customOnly"}))
		without := func(key string) map[string]any {
			b := e5NewAgent("Bad")
			delete(b, key)
			return b
		}
		with := func(key string, v any) map[string]any {
			b := e5NewAgent("Bad")
			b[key] = v
			return b
		}
		for name, body := range map[string]map[string]any{
			"no name":             without("name"),
			"empty name":          with("name", ""),
			"no enabled":          without("enabled"),
			"no execution":        without("execution"),
			"no contextGathering": without("contextGathering"),
			"blank instructions":  with("instructions", "   "),
			"managedBy":           with("managedBy", "customer"),
			"reserved metadata":   with("metadata", map[string]any{"apiKey": "x"}),
			"service without id":  with("execution", map[string]any{"executionStrategy": "service"}),
		} {
			r := s.call("/v2/agents/create", body)
			if r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Fatalf("%s: want INVALID_ARGUMENT, got %d %s", name, r.Code, r.Raw)
			}
		}
		if after := len(s.e5AgentList(s.ws, map[string]any{"filter": "customOnly"})); after != before {
			t.Fatalf("failed creates stored agents: %d → %d", before, after)
		}
	})

	t.Run("update rules", func(t *testing.T) {
		s := s.e5For(t)
		const builtin = "grammar-check"
		original := s.e5Agent(s.ws, builtin)
		// Built-in without enabled: INVALID_ARGUMENT, nothing changes.
		expectStatus(t, s.call("/v2/agents/update", map[string]any{"agentId": builtin, "name": "Renamed"}), "INVALID_ARGUMENT", 400)
		expectStatus(t, s.call("/v2/agents/update", map[string]any{"agentId": builtin}), "INVALID_ARGUMENT", 400)
		if a := s.e5Agent(s.ws, builtin); !reflect.DeepEqual(a, original) {
			t.Fatalf("refused update changed %s: %v", builtin, a)
		}
		// Built-in with enabled: name and description are ignored.
		r := s.call("/v2/agents/update", map[string]any{"agentId": builtin, "enabled": false, "name": "Renamed", "description": "Changed"})
		expectOK(t, r)
		if r.DataMap()["agentId"] != builtin {
			t.Fatalf("update result: %s", r.Raw)
		}
		a := s.e5Agent(s.ws, builtin)
		if a["enabled"] != false || a["name"] != original["name"] || a["description"] != original["description"] {
			t.Fatalf("built-in after update = %v", a)
		}
		row := s.e5AgentList(s.ws, map[string]any{"filter": "defaultOnly"})[slices.Index(e5Builtins, builtin)]
		if row["enabled"] != false {
			t.Fatalf("list row after disabling: %v", row)
		}

		id := s.e5CreateAgent(s.ws, "Update target")
		before := s.e5Agent(s.ws, id)
		// None of the three: a successful no-op.
		r = s.call("/v2/agents/update", map[string]any{"agentId": id})
		expectOK(t, r)
		if r.DataMap()["agentId"] != id {
			t.Fatalf("no-op update result: %s", r.Raw)
		}
		if a := s.e5Agent(s.ws, id); !reflect.DeepEqual(a, before) {
			t.Fatalf("no-op update changed the agent: %v → %v", before, a)
		}
		// Empty name: INVALID_ARGUMENT, and the description sent with it is not applied.
		expectStatus(t, s.call("/v2/agents/update", map[string]any{"agentId": id, "name": "", "description": "New"}), "INVALID_ARGUMENT", 400)
		if a := s.e5Agent(s.ws, id); !reflect.DeepEqual(a, before) {
			t.Fatalf("refused update changed the agent: %v", a)
		}
		// Identity changes create no version.
		expectOK(t, s.call("/v2/agents/update", map[string]any{"agentId": id, "name": "Renamed agent", "description": "New", "enabled": false}))
		a = s.e5Agent(s.ws, id)
		if a["name"] != "Renamed agent" || a["description"] != "New" || a["enabled"] != false || a["version"] != 1.0 ||
			a["instructions"] != before["instructions"] {
			t.Fatalf("custom agent after update = %v", a)
		}
		if v := s.e5Versions(s.ws, id); len(v) != 1 {
			t.Fatalf("identity update created versions: %v", v)
		}
		// Unknown agents and missing agentId.
		expectStatus(t, s.call("/v2/agents/update", map[string]any{"agentId": "agent_doesnotexist", "enabled": true}), "NOT_FOUND", 404)
		expectStatus(t, s.call("/v2/agents/update", map[string]any{"agentId": "agent_doesnotexist"}), "NOT_FOUND", 404)
		expectStatus(t, s.call("/v2/agents/update", map[string]any{"enabled": true}), "INVALID_ARGUMENT", 400)
		expectStatus(t, s.call("/v2/agents/update", map[string]any{"agentId": "", "enabled": true}), "INVALID_ARGUMENT", 400)
	})

	t.Run("versions", func(t *testing.T) {
		s := s.e5For(t)
		id := s.e5CreateAgent(s.ws, "Versioned")
		r := s.call("/v2/agents/version/update", map[string]any{"agentId": id, "instructions": "Second instructions.",
			"execution": map[string]any{"aiConfig": map[string]any{"provider": "claude"}}})
		expectOK(t, r)
		if r.DataMap()["version"] != 2.0 {
			t.Fatalf("version/update: %s", r.Raw)
		}
		// One level deep: contextGathering keeps its strategies.
		r = s.call("/v2/agents/version/update", map[string]any{"agentId": id, "contextGathering": map[string]any{"aiConfig": map[string]any{"provider": "openai"}}})
		expectOK(t, r)
		if r.DataMap()["version"] != 3.0 {
			t.Fatalf("version/update: %s", r.Raw)
		}
		a := s.e5Agent(s.ws, id)
		cg, _ := a["contextGathering"].(map[string]any)
		exec, _ := a["execution"].(map[string]any)
		ai, _ := exec["aiConfig"].(map[string]any)
		if a["version"] != 3.0 || a["instructions"] != "Second instructions." || a["name"] != "Versioned" ||
			!reflect.DeepEqual(cg["strategies"], []any{"web-page-text"}) || ai["provider"] != "claude" {
			t.Fatalf("agent after two versions = %v", a)
		}
		// Refused changes create no version.
		for name, body := range map[string]map[string]any{
			"merged result invalid": {"agentId": id, "execution": map[string]any{"executionStrategy": "service"}},
			"managedBy":             {"agentId": id, "managedBy": "customer"},
			"reserved metadata":     {"agentId": id, "metadata": map[string]any{"internal": true}},
			"no agentId":            {"instructions": "x"},
			"built-in":              {"agentId": "spell-check", "instructions": "x"},
		} {
			if r := s.call("/v2/agents/version/update", body); r.Status() != "INVALID_ARGUMENT" || r.Code != 400 {
				t.Fatalf("%s: want INVALID_ARGUMENT, got %d %s", name, r.Code, r.Raw)
			}
		}
		expectStatus(t, s.call("/v2/agents/version/update", map[string]any{"agentId": "agent_doesnotexist", "instructions": "x"}), "NOT_FOUND", 404)

		versions := s.e5Versions(s.ws, id)
		if len(versions) != 3 {
			t.Fatalf("versions = %v", versions)
		}
		for i, v := range versions {
			n := 3 - i
			if v["version"] != float64(n) || v["id"] != "v"+string(rune('0'+n)) {
				t.Fatalf("versions not newest first: %v", versions)
			}
			if _, isNum := v["createdAt"].(float64); !isNum {
				t.Fatalf("version without createdAt: %v", v)
			}
			if _, has := v["name"]; has {
				t.Fatalf("version row carries identity fields: %v", v)
			}
		}
		if versions[0]["instructions"] != "Second instructions." || versions[2]["instructions"] != "Flag copy that does not match the brand voice." {
			t.Fatalf("behaviour per version: %v / %v", versions[0]["instructions"], versions[2]["instructions"])
		}
		if v := s.e5Versions(s.ws, "agent_doesnotexist"); len(v) != 0 {
			t.Fatalf("unknown agent versions = %v", v)
		}
		expectStatus(t, s.call("/v2/agents/versions/list", map[string]any{}), "INVALID_ARGUMENT", 400)
	})

	t.Run("delete", func(t *testing.T) {
		s := s.e5For(t)
		id := s.e5CreateAgent(s.ws, "Short lived")
		expectOK(t, s.call("/v2/agents/version/update", map[string]any{"agentId": id, "instructions": "v2"}))
		r := s.call("/v2/agents/delete", map[string]any{"agentId": id})
		expectOK(t, r)
		if r.DataMap()["agentId"] != id {
			t.Fatalf("delete result: %s", r.Raw)
		}
		expectStatus(t, s.call("/v2/agents/get", map[string]any{"agentId": id}), "NOT_FOUND", 404)
		if v := s.e5Versions(s.ws, id); len(v) != 0 {
			t.Fatalf("versions of a deleted agent: %v", v)
		}
		if ids := e5AgentIDs(s.e5AgentList(s.ws, map[string]any{})); slices.Contains(ids, id) {
			t.Fatalf("deleted agent listed: %v", ids)
		}
		expectOK(t, s.call("/v2/agents/delete", map[string]any{"agentId": id})) // idempotent
		expectStatus(t, s.call("/v2/agents/delete", map[string]any{}), "INVALID_ARGUMENT", 400)
		// Built-in agents stay (deleting one is not documented; it is refused).
		if r := s.call("/v2/agents/delete", map[string]any{"agentId": "lorem-ipsum"}); r.Code == 200 {
			t.Fatalf("deleting a built-in agent succeeded: %s", r.Raw)
		}
		s.e5Agent(s.ws, "lorem-ipsum")
	})

	t.Run("get errors", func(t *testing.T) {
		s := s.e5For(t)
		expectStatus(t, s.call("/v2/agents/get", map[string]any{"agentId": "agent_doesnotexist"}), "NOT_FOUND", 404)
		expectStatus(t, s.call("/v2/agents/get", map[string]any{"groupId": "no-such-group"}), "NOT_FOUND", 404)
		expectStatus(t, s.call("/v2/agents/get", map[string]any{"filter": "everything"}), "INVALID_ARGUMENT", 400)
		expectStatus(t, s.call("/v2/agents/get", map[string]any{"agentId": ""}), "INVALID_ARGUMENT", 400)
	})
}
