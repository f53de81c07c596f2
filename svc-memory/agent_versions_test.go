package svcmemory_test

import (
	"fmt"
	"net/http"
	"testing"

	svcmemory "github.com/opencollab/backend/svc-memory"
)

func TestUpdateCustomAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	id := e.createAgent(ws1, validAgent())
	var out struct {
		AgentID string `json:"agentId"`
	}
	e.okData(ws1, "/v2/agents/update", map[string]any{"agentId": id, "name": "Renamed", "description": "New", "enabled": false}, &out)
	got := e.getAgent(ws1, id)
	if out.AgentID != id || got["name"] != "Renamed" || got["description"] != "New" || got["enabled"] != false || got["version"] != float64(1) {
		t.Fatalf("after update %v", got)
	}
	e.okData(ws1, "/v2/agents/update", map[string]any{"agentId": id}, nil) // nothing to change: no-op
	e.okData(ws1, "/v2/agents/update", map[string]any{"agentId": id, "description": ""}, nil)
	if got := e.getAgent(ws1, id); got["name"] != "Renamed" || got["description"] != "" {
		t.Fatalf("after no-op and description clear %v", got)
	}
	e.fails(ws1, "/v2/agents/update", map[string]any{"agentId": id, "name": ""}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/update", map[string]any{"name": "x"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/update", map[string]any{"agentId": "nope", "enabled": true}, http.StatusNotFound, "NOT_FOUND")
	e.fails(ws1, "/v2/agents/update", map[string]any{"agentId": "nope"}, http.StatusNotFound, "NOT_FOUND")
	e.fails(ws2, "/v2/agents/update", map[string]any{"agentId": id, "enabled": true}, http.StatusNotFound, "NOT_FOUND")
	e.fails(ws1, "/v2/agents/update", map[string]any{"agentId": id, "enabled": "yes"}, http.StatusBadRequest, "INVALID_ARGUMENT")
}

func TestAgentVersions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	id := e.createAgent(ws1, validAgent("execution", map[string]any{"aiConfig": map[string]any{"provider": "gemini", "model": "m1"}, "responseDescriptions": map[string]any{"title": "t"}},
		"contextGathering", map[string]any{"strategies": []string{"web-page-text"}, "strategyOptions": map[string]any{"web-page-text": map[string]any{"deviceType": "mobile"}}}))

	var v struct {
		Version int `json:"version"`
	}
	e.okData(ws1, "/v2/agents/version/update", map[string]any{"agentId": id, "instructions": "Version two.",
		"execution":        map[string]any{"aiConfig": map[string]any{"provider": "openai"}},
		"contextGathering": map[string]any{"strategyOptions": map[string]any{"web-page-html": map[string]any{}}},
		"metadata":         map[string]any{"team": "legal"}}, &v)
	if v.Version != 2 {
		t.Fatalf("version %d", v.Version)
	}
	got := e.getAgent(ws1, id)
	exec, _ := got["execution"].(map[string]any)
	cg, _ := got["contextGathering"].(map[string]any)
	opts, _ := cg["strategyOptions"].(map[string]any)
	if got["version"] != float64(2) || got["instructions"] != "Version two." ||
		fmt.Sprint(exec["aiConfig"]) != "map[provider:openai]" || exec["responseDescriptions"] == nil || // one level deep
		cg["strategies"] == nil || opts["web-page-text"] != nil || opts["web-page-html"] == nil ||
		fmt.Sprint(got["metadata"]) != "map[team:legal]" {
		t.Fatalf("version 2 %v", got)
	}
	// The merged result must be valid; a failed update creates nothing.
	e.fails(ws1, "/v2/agents/version/update", map[string]any{"agentId": id, "instructions": " "}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/version/update", map[string]any{"agentId": id, "managedBy": "x"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/version/update", map[string]any{"agentId": id, "metadata": map[string]any{"apiKey": "k"}}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.fails(ws1, "/v2/agents/version/update", map[string]any{"agentId": "nope", "instructions": "x"}, http.StatusNotFound, "NOT_FOUND")
	e.fails(ws1, "/v2/agents/version/update", map[string]any{"instructions": "x"}, http.StatusBadRequest, "INVALID_ARGUMENT")
	// Identity updates create no version.
	e.okData(ws1, "/v2/agents/update", map[string]any{"agentId": id, "name": "Renamed"}, nil)

	var list struct {
		Versions []map[string]any `json:"versions"`
	}
	e.okData(ws1, "/v2/agents/versions/list", map[string]any{"agentId": id}, &list)
	if len(list.Versions) != 2 || list.Versions[0]["id"] != "v2" || list.Versions[0]["version"] != float64(2) ||
		list.Versions[1]["id"] != "v1" || list.Versions[1]["instructions"] != validAgent()["instructions"] ||
		list.Versions[0]["createdAt"] == nil || list.Versions[0]["name"] != nil {
		t.Fatalf("versions %v", list.Versions)
	}
	e.okData(ws1, "/v2/agents/versions/list", map[string]any{"agentId": "nope"}, &list)
	if list.Versions == nil || len(list.Versions) != 0 {
		t.Fatalf("unknown agent versions %v", list.Versions)
	}
	e.fails(ws1, "/v2/agents/versions/list", map[string]any{}, http.StatusBadRequest, "INVALID_ARGUMENT")
}

func TestDeleteAgent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcmemory.Config{})
	id := e.createAgent(ws1, validAgent())
	e.okData(ws1, "/v2/agents/version/update", map[string]any{"agentId": id, "instructions": "v2"}, nil)
	e.okData(ws2, "/v2/agents/delete", map[string]any{"agentId": id}, nil) // another workspace: nothing happens
	e.getAgent(ws1, id)
	var out struct {
		AgentID string `json:"agentId"`
	}
	for range 2 { // idempotent
		e.okData(ws1, "/v2/agents/delete", map[string]any{"agentId": id}, &out)
		if out.AgentID != id {
			t.Fatalf("delete echoed %q", out.AgentID)
		}
	}
	e.fails(ws1, "/v2/agents/get", map[string]any{"agentId": id}, http.StatusNotFound, "NOT_FOUND")
	var list struct {
		Versions []map[string]any `json:"versions"`
	}
	e.okData(ws1, "/v2/agents/versions/list", map[string]any{"agentId": id}, &list)
	if len(list.Versions) != 0 {
		t.Fatalf("versions left: %v", list.Versions)
	}
	e.fails(ws1, "/v2/agents/delete", map[string]any{}, http.StatusBadRequest, "INVALID_ARGUMENT")
}
