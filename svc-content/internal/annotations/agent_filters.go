package annotations

// The agent filters of get and delete (§7.5, §7.7): they select agent
// annotations and never widen a query; an agent filter that cannot be met
// matches nothing rather than everything.

// AgentFilter narrows a Query to agent annotations; the zero value does not
// filter.
type AgentFilter struct {
	Any         bool   // every agent annotation (agentComments)
	ID          string // agent.agentId
	ExecutionID string
	Type        string // agent.agentType: built-in, custom or external
	Source      string // agent.agentSource: builtin or external
	// PendingSuggestions keeps agent suggestions still pending.
	PendingSuggestions bool
	// Pages keeps agent annotations stamped for these pages (agentPage);
	// older ones without a url never match.
	Pages []string
}

// Active reports whether f filters at all.
func (f AgentFilter) Active() bool {
	return f.Any || f.ID != "" || f.ExecutionID != "" || f.Type != "" || f.Source != "" || f.PendingSuggestions || len(f.Pages) > 0
}

// agentFilter is get's agent filter: at most one of them per request.
func (r *GetRequest) agentFilter() (AgentFilter, error) {
	f := AgentFilter{ID: r.AgentID, ExecutionID: r.ExecutionID, Type: r.AgentType, Source: r.AgentSource,
		PendingSuggestions: r.AgentSuggestions, Any: r.AgentComments}
	set := 0
	for _, on := range []bool{f.ID != "", f.ExecutionID != "", f.Type != "", f.Source != "", f.PendingSuggestions, f.Any} {
		if on {
			set++
		}
	}
	if set > 1 {
		return AgentFilter{}, invalid("at most one agent filter (agentId, executionId, agentType, agentSource, agentSuggestions, agentComments) per request")
	}
	if err := oneOf(f.Type, "agentType", AgentTypeBuiltin, AgentTypeCustom, AgentTypeExternal); err != nil {
		return AgentFilter{}, err
	}
	return f, oneOf(f.Source, "agentSource", AgentSourceBuiltin, AgentSourceExternal)
}

// agentFilter is delete's agent filter: agentId, agentSuggestions and
// agentUrls AND-combine. agentUrls values that are no absolute http(s) URL
// are left out; if none is left the request is refused.
func (r *DeleteRequest) agentFilter() (AgentFilter, error) {
	f := AgentFilter{ID: r.AgentID, PendingSuggestions: r.AgentSuggestions}
	if len(r.AgentURLs) == 0 {
		return f, nil
	}
	for _, u := range r.AgentURLs {
		if p := agentPage(u); p != "" {
			f.Pages = append(f.Pages, p)
		}
	}
	if len(f.Pages) == 0 {
		return AgentFilter{}, invalid("field agentUrls names no page: each value must be an absolute http(s) URL")
	}
	return f, nil
}

// HasAgentFilters reports whether a delete request filters by agent, which
// needs the advancedQueries feature.
func (r *DeleteRequest) HasAgentFilters() bool {
	return r.AgentID != "" || r.AgentSuggestions || len(r.AgentURLs) > 0
}
