package svcmemory_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	svcmemory "github.com/opencollab/backend/svc-memory"
)

var builtinIDs = []string{"spell-check", "grammar-check", "broken-links", "pii-detection", "profanity-filter",
	"sensitive-data", "lighthouse", "accessibility-checker", "og-image-checker", "lorem-ipsum"}

// validAgent is the smallest valid create body; kv overrides fields (a nil
// value removes one).
func validAgent(kv ...any) map[string]any {
	m := map[string]any{
		"name": "Style guide", "description": "Checks the style guide", "enabled": true,
		"instructions":     "Flag sentences that break the style guide.",
		"contextGathering": map[string]any{"strategies": []string{"web-page-text"}},
		"execution":        map[string]any{},
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(m, kv[i].(string))
			continue
		}
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

type agentRow struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	Description    string  `json:"description"`
	Enabled        bool    `json:"enabled"`
	ManagedBy      string  `json:"managedBy"`
	Version        int     `json:"version"`
	System         bool    `json:"system"`
	ExecutionCount *int    `json:"executionCount"`
	LastExecutedAt *int64  `json:"lastExecutedAt"`
	Essential      *bool   `json:"essentialDefault"`
	Instructions   *string `json:"instructions"`
}

func (e *env) createAgent(principal string, body map[string]any) string {
	e.T.Helper()
	var out struct {
		AgentID string `json:"agentId"`
	}
	e.okData(principal, "/v2/agents/create", body, &out)
	if out.AgentID == "" {
		e.T.Fatal("create returned no agentId")
	}
	return out.AgentID
}

func (e *env) getAgent(principal, id string) map[string]any {
	e.T.Helper()
	var out struct {
		Agent map[string]any `json:"agent"`
	}
	e.okData(principal, "/v2/agents/get", map[string]any{"agentId": id}, &out)
	return out.Agent
}

func (e *env) listAgents(principal string, q map[string]any) ([]agentRow, *string) {
	e.T.Helper()
	var out struct {
		Agents []agentRow `json:"agents"`
	}
	r := e.okData(principal, "/v2/agents/get", q, &out)
	var next *string
	if raw := r.Result["nextPageToken"]; string(raw) != "null" && raw != nil {
		s := strings.Trim(string(raw), `"`)
		next = &s
	}
	return out.Agents, next
}

func rowIDs(rows []agentRow) string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return strings.Join(out, ",")
}

func TestBuiltinAgents(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	rows, next := e.listAgents(ws1, map[string]any{})
	if rowIDs(rows) != strings.Join(builtinIDs, ",") || next != nil {
		t.Fatalf("list %s next %v", rowIDs(rows), next)
	}
	for _, r := range rows {
		if !r.Enabled || r.ManagedBy != "builtin" || !r.System || r.Name == "" || r.Description == "" ||
			r.ExecutionCount == nil || *r.ExecutionCount != 0 || r.LastExecutedAt != nil {
			t.Fatalf("row %+v", r)
		}
	}
	one := e.getAgent(ws1, "lighthouse")
	if one["id"] != "lighthouse" || one["system"] != true || one["essentialDefault"] != false || one["managedBy"] != "builtin" || one["enabled"] != true {
		t.Fatalf("built-in %v", one)
	}

	// update: only enabled; name and description are silently ignored.
	e.okData(ws1, "/v2/agents/update", map[string]any{"agentId": "lighthouse", "enabled": false, "name": "Mine", "description": ""}, nil)
	one = e.getAgent(ws1, "lighthouse")
	if one["enabled"] != false || one["name"] != "Lighthouse" {
		t.Fatalf("after update %v", one)
	}
	e.fails(ws1, "/v2/agents/update", map[string]any{"agentId": "lighthouse", "name": "Mine"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/delete", map[string]any{"agentId": "spell-check"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/version/update", map[string]any{"agentId": "spell-check", "instructions": "x"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	var versions struct {
		Versions []map[string]any `json:"versions"`
	}
	e.okData(ws1, "/v2/agents/versions/list", map[string]any{"agentId": "spell-check"}, &versions)
	if versions.Versions == nil || len(versions.Versions) != 0 {
		t.Fatalf("built-in versions %v", versions.Versions)
	}
	// The state is per workspace.
	if one := e.getAgent(ws2, "lighthouse"); one["enabled"] != true {
		t.Fatalf("ws2 sees ws1's built-in state: %v", one)
	}
	rows, _ = e.listAgents(ws1, map[string]any{"filter": "defaultOnly"})
	if rows[6].ID != "lighthouse" || rows[6].Enabled {
		t.Fatalf("list after disable: %+v", rows[6])
	}
}

func TestCreateAndGetCustomAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	body := validAgent("metadata", map[string]any{"team": "docs"}, "extraField", "kept",
		"contextGathering", map[string]any{
			"strategies": []string{"web-page-text", "rest-api"},
			"strategyOptions": map[string]any{"rest-api": map[string]any{"endpoints": []any{map[string]any{
				"description": "CMS", "url": "https://cms.example.com/{{page}}",
				"auth": map[string]any{"type": "bearer", "token": "s3cret"},
			}}}},
		},
		"input", map[string]any{"variableKeys": []string{"page"}, "supportedVariables": []string{"x"}})
	id := e.createAgent(ws1, body)
	got := e.getAgent(ws1, id)
	if got["id"] != id || got["name"] != "Style guide" || got["enabled"] != true || got["version"] != float64(1) ||
		got["managedBy"] != "customer" || got["instructions"] != body["instructions"] || got["extraField"] != "kept" {
		t.Fatalf("custom agent %v", got)
	}
	if md, _ := got["metadata"].(map[string]any); md["team"] != "docs" {
		t.Fatalf("metadata %v", got["metadata"])
	}
	text := fmt.Sprint(got["contextGathering"])
	if strings.Contains(text, "s3cret") || !strings.Contains(text, "__redacted__") {
		t.Fatalf("secret not redacted: %s", text)
	}
	if in, _ := got["input"].(map[string]any); in["supportedVariables"] != nil {
		t.Fatalf("client-sent supportedVariables kept: %v", in)
	}
	rows, _ := e.listAgents(ws1, map[string]any{"filter": "customOnly"})
	if len(rows) != 1 || rows[0].ID != id || rows[0].Version != 1 || rows[0].ManagedBy != "customer" || rows[0].System || rows[0].Instructions != nil {
		t.Fatalf("custom list %+v", rows)
	}
	// Another workspace sees nothing of it.
	e.fails(ws2, "/v2/agents/get", map[string]any{"agentId": id}, http.StatusNotFound, "NOT_FOUND")
	if rows, _ := e.listAgents(ws2, map[string]any{"filter": "customOnly"}); len(rows) != 0 {
		t.Fatalf("ws2 lists ws1's agent: %+v", rows)
	}
}

func TestCreateAgentValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	cg := func(strategies ...string) map[string]any { return map[string]any{"strategies": strategies} }
	tests := []struct {
		name string
		body map[string]any
		ok   bool
	}{
		{"valid", validAgent(), true},
		{"no name", validAgent("name", nil), false},
		{"empty name", validAgent("name", ""), false},
		{"no description", validAgent("description", nil), false},
		{"no enabled", validAgent("enabled", nil), false},
		{"enabled not bool", validAgent("enabled", "yes"), false},
		{"no instructions", validAgent("instructions", nil), false},
		{"blank instructions", validAgent("instructions", " \n\t"), false},
		{"service without instructions", validAgent("instructions", nil, "execution", map[string]any{"executionStrategy": "service", "serviceId": "crawler"}), true},
		{"service without serviceId", validAgent("execution", map[string]any{"executionStrategy": "service"}), false},
		{"unknown service", validAgent("execution", map[string]any{"executionStrategy": "service+ai", "serviceId": "x"}), false},
		{"unknown strategy", validAgent("execution", map[string]any{"executionStrategy": "magic"}), false},
		{"mcp without servers", validAgent("execution", map[string]any{"executionStrategy": "mcp-tools"}), false},
		{"mcp with server", validAgent("execution", map[string]any{"executionStrategy": "mcp-tools",
			"mcpServers": []any{map[string]any{"id": "s", "url": "https://mcp.example.com"}}}), true},
		{"strict knowledge", validAgent("execution", map[string]any{"knowledge": map[string]any{"sourceIds": []string{"a"}}}), false},
		{"knowledge bounds", validAgent("execution", map[string]any{"knowledge": map[string]any{"maxChunks": 21}}), false},
		{"strict aiConfig", validAgent("execution", map[string]any{"aiConfig": map[string]any{"temperature": 1}}), false},
		{"no execution", validAgent("execution", nil), false},
		{"execution not object", validAgent("execution", "ai"), false},
		{"no contextGathering", validAgent("contextGathering", nil), false},
		{"empty strategies", validAgent("contextGathering", cg()), false},
		{"unknown strategy name", validAgent("contextGathering", cg("telepathy")), false},
		{"strategies at memory.agentLists", validAgent("contextGathering", cg(slices.Repeat([]string{"web-page-text"}, 100)...)), true},
		{"strategies above memory.agentLists", validAgent("contextGathering", cg(slices.Repeat([]string{"web-page-text"}, 101)...)), false},
		{"rest-api without options", validAgent("contextGathering", cg("rest-api")), false},
		{"reserved metadata", validAgent("metadata", map[string]any{"internal": true}), false},
		{"metadata not object", validAgent("metadata", "x"), false},
		{"managedBy", validAgent("managedBy", "customer"), false},
		{"phase timeout zero", validAgent("phaseTimeoutMs", 0), false},
		{"phase timeout fraction", validAgent("phaseTimeoutMs", 1.5), false},
		{"phase timeout big", validAgent("phaseTimeoutMs", 86400000), true},
		{"postProcess unknown stage", validAgent("postProcess", map[string]any{"magic": map[string]any{}}), false},
		{"crossPage incomplete", validAgent("scope", map[string]any{"crossPage": map[string]any{"enabled": true}}), false},
		{"response adapter", validAgent("response", map[string]any{"responseAdapter": "nope"}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.ok {
				e.createAgent(ws1, tt.body)
				return
			}
			e.fails(ws1, "/v2/agents/create", tt.body, http.StatusBadRequest, "INVALID_ARGUMENT")
		})
	}
}

func TestCustomAgentCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	for range 100 {
		e.createAgent(ws1, validAgent())
	}
	e.fails(ws1, "/v2/agents/create", validAgent(), http.StatusTooManyRequests, "RESOURCE_EXHAUSTED")
	e.createAgent(ws2, validAgent()) // the cap is per workspace
	// Paging over 10 built-ins + 100 custom agents.
	seen, q := 0, map[string]any{"pageSize": 30}
	for page := 0; ; page++ {
		rows, next := e.listAgents(ws1, q)
		seen += len(rows)
		if next == nil {
			break
		}
		if page > 4 {
			t.Fatal("paging does not end")
		}
		q = map[string]any{"pageSize": 30, "pageToken": *next}
	}
	if seen != 110 {
		t.Fatalf("paged through %d agents, want 110", seen)
	}
}

func TestAgentGetErrorsAndPaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	a := e.createAgent(ws1, validAgent("name", "A"))
	// Custom agents list in creation order to the millisecond, then by
	// their random ids: b must be created in a later millisecond to follow a.
	time.Sleep(2 * time.Millisecond)
	b := e.createAgent(ws1, validAgent("name", "B"))
	e.fails(ws1, "/v2/agents/get", map[string]any{"agentId": "nope"}, http.StatusNotFound, "NOT_FOUND")
	e.fails(ws1, "/v2/agents/get", map[string]any{"agentId": ""}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/get", map[string]any{"filter": "everything"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/get", map[string]any{"groupId": "g1"}, http.StatusNotFound, "NOT_FOUND")
	e.fails(ws1, "/v2/agents/get", map[string]any{"pageSize": 0}, http.StatusBadRequest, "INVALID_ARGUMENT")

	var all []string
	q := map[string]any{"pageSize": 4}
	for {
		rows, next := e.listAgents(ws1, q)
		all = append(all, rowIDs(rows))
		if next == nil {
			break
		}
		q = map[string]any{"pageSize": 4, "pageToken": *next}
	}
	want := strings.Join(append(append([]string{}, builtinIDs...), a, b), ",")
	if strings.Join(all, ",") != want || len(all) != 3 {
		t.Fatalf("pages %v", all)
	}
	_, next := e.listAgents(ws1, map[string]any{"pageSize": 4})
	e.fails(ws1, "/v2/agents/get", map[string]any{"pageSize": 4, "filter": "customOnly", "pageToken": *next}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws2, "/v2/agents/get", map[string]any{"pageSize": 4, "pageToken": *next}, http.StatusBadRequest, "INVALID_ARGUMENT")
}
