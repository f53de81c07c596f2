package httpapi

import (
	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-memory/internal/agents"
)

// The array limits of svc-memory's operations, in one table, for the API
// reference (api.Limits). The memory operations read their bodies field by
// field (reader), so the reader checks them by these constants.
const (
	maxExcludedDocuments = 1000
	maxDecisions         = 20
)

var limitTable = []api.Limit{
	{Name: "memory.excludeDocumentIds", Max: maxExcludedDocuments, Doc: "excludeDocumentIds (and filters.excludeDocumentIds) of memory search, ask and suggest"},
	{Name: "memory.decisions", Max: maxDecisions, Doc: "filters.decision of memory search, ask and suggest"},
	{Name: "memory.agentLists", Max: agents.MaxListItems, Doc: "every array of an agent's configuration (strategies, selectors, endpoints, mcpServers, variableKeys, userContextFields, postProcess stages)"},
}

func init() { api.RegisterLimits(limitTable...) }
