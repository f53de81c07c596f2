package svccontent

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/svc-content/internal/annotations"
)

// agentsGetPath is svc-memory's agents/get: an agent comment names an
// agent of the workspace, so it is looked up as the workspace, by the
// operation the customer's backend would call.
const agentsGetPath = "/v2/agents/get"

// memoryAgents is annotations.AgentDirectory over svc-memory.
type memoryAgents struct{ client *svcclient.Client }

func (m memoryAgents) Agent(ctx context.Context, ws, agentID string) (annotations.AgentInfo, error) {
	if !m.client.Configured() {
		return annotations.AgentInfo{}, api.Errorf(api.Unavailable, "agent %s cannot be looked up: svc-memory is not configured (MEMORY_URL)", agentID)
	}
	var out struct {
		Agent struct {
			Name      string `json:"name"`
			ManagedBy string `json:"managedBy"`
		} `json:"agent"`
	}
	err := m.client.Call(ctx, agentsGetPath, internalauth.Workspace(ws), map[string]string{"agentId": agentID}, &out)
	if err != nil {
		// NOT_FOUND is the answer about the agent; any other refusal of
		// the call itself says nothing about it.
		return annotations.AgentInfo{}, svcclient.PassOn(err, "svc-memory refused the agent lookup", api.NotFound)
	}
	info := annotations.AgentInfo{Type: annotations.AgentTypeCustom, Name: out.Agent.Name}
	if out.Agent.ManagedBy == "builtin" {
		info.Type = annotations.AgentTypeBuiltin
	}
	return info, nil
}
