package annotations

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// Agent comments (§7.1 AgentBlock): a comment an AI agent wrote carries an
// agent block naming the agent, the run and the finding. A built-in or
// custom agent of this deployment (source builtin, the hosted product's
// "velt") is looked up in svc-memory, which says which kind it is and its
// name; an external agent is the caller's word. The comment is marked
// sourceType "agent"; on an annotation's root comment the annotation gets
// the block too and is an agent annotation, which the agent filters of get
// and delete select.

// Agent sources and types as the wire names them.
const (
	AgentSourceBuiltin  = "builtin"
	AgentSourceExternal = "external"
	AgentTypeBuiltin    = "built-in"
	AgentTypeCustom     = "custom"
	AgentTypeExternal   = "external"

	sourceAgent   = "agent"
	sourceRESTAPI = "rest-api"
)

// AgentInfo is what svc-memory knows of an agent: its kind (built-in or
// custom) and name.
type AgentInfo struct{ Type, Name string }

// AgentDirectory looks agents up in svc-memory: NOT_FOUND for an id it does
// not know, UNAVAILABLE when it cannot be asked.
type AgentDirectory interface {
	Agent(ctx context.Context, ws, agentID string) (AgentInfo, error)
}

// WithAgents sets where built-in and custom agents are looked up; without
// it a comment naming one answers UNAVAILABLE.
func (s *Service) WithAgents(d AgentDirectory) *Service {
	s.agents = d
	return s
}

var (
	severities   = []string{"critical", "high", "medium", "low", "info"}
	findingTypes = []string{"text", "pin", "page"}
	reasonSource = []string{"instructions", "knowledge"}
)

// checkAgent validates an agent block as the caller sent it.
func checkAgent(b map[string]any, path string) error {
	if b == nil {
		return nil
	}
	src, _ := b["agentSource"].(string)
	if src != AgentSourceBuiltin && src != AgentSourceExternal {
		return invalid("field %s.agentSource must be %s or %s", path, AgentSourceBuiltin, AgentSourceExternal)
	}
	if err := requireStrings(b, path, "agentId"); err != nil {
		return err
	}
	if src == AgentSourceExternal {
		if err := requireStrings(b, path, "agentName"); err != nil {
			return err
		}
	}
	for _, k := range []string{"executionId", "url"} {
		if err := optionalString(b, path, k); err != nil {
			return err
		}
	}
	reason, ok := b["reason"].(map[string]any)
	if !ok {
		return invalid("field %s.reason is required and must be an object", path)
	}
	return checkReason(reason, path+".reason")
}

func checkReason(r map[string]any, path string) error {
	if err := requireStrings(r, path, "title", "description"); err != nil {
		return err
	}
	checks := []error{
		enum(r, path, "severity", severities, true),
		enum(r, path, "findingType", findingTypes, false),
		enum(r, path, "source", reasonSource, false),
	}
	for _, k := range []string{"findingId", "issueType", "knowledgeSection", "htmlSnippet", "htmlSelector"} {
		checks = append(checks, optionalString(r, path, k))
	}
	if c, present := r["confidence"]; present {
		n, ok := c.(float64)
		if !ok || n != float64(int(n)) || n < 0 || n > 100 {
			checks = append(checks, invalid("field %s.confidence must be a whole number from 0 to 100", path))
		}
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

func optionalString(m map[string]any, path, key string) error {
	if v, present := m[key]; present && v != nil {
		if _, ok := v.(string); !ok {
			return invalid("field %s.%s must be a string", path, key)
		}
	}
	return nil
}

// enum checks that m[key] is one of allowed (or absent, unless required).
func enum(m map[string]any, path, key string, allowed []string, required bool) error {
	v, present := m[key]
	if (!present || v == nil) && !required {
		return nil
	}
	if s, ok := v.(string); ok && slices.Contains(allowed, s) {
		return nil
	}
	return invalid("field %s.%s must be one of %s", path, key, strings.Join(allowed, ", "))
}

// maxAgentsPerRequest bounds the agents of this deployment one add may
// name: each is a call to svc-memory, and an add carries up to 10,000
// comments. A run of one agent names one.
const maxAgentsPerRequest = 10

// resolveAgents completes the agent blocks of comments: agentType, and for
// an agent of this deployment its name, looked up once per agent. A
// built-in or custom agent svc-memory does not know fails the request
// (NOT_FOUND), before anything is written.
func (s *Service) resolveAgents(ctx context.Context, ws string, comments []CommentInput) error {
	if err := checkAgentCount(comments); err != nil {
		return err
	}
	known := map[string]AgentInfo{}
	for _, c := range comments {
		b := c.Agent
		if b == nil {
			continue
		}
		if b["agentSource"] == AgentSourceExternal {
			b["agentType"] = AgentTypeExternal
			continue
		}
		id := b["agentId"].(string)
		info, ok := known[id]
		if !ok {
			var err error
			if info, err = s.lookUpAgent(ctx, ws, id); err != nil {
				return err
			}
			known[id] = info
		}
		b["agentType"], b["agentName"] = info.Type, info.Name
	}
	return nil
}

// checkAgentCount refuses an add naming more than maxAgentsPerRequest
// agents of this deployment, before any is looked up.
func checkAgentCount(comments []CommentInput) error {
	ids := map[any]bool{}
	for _, c := range comments {
		if c.Agent != nil && c.Agent["agentSource"] == AgentSourceBuiltin {
			ids[c.Agent["agentId"]] = true
		}
	}
	if len(ids) > maxAgentsPerRequest {
		return invalid("the agent blocks of one request name %d built-in or custom agents; at most %d", len(ids), maxAgentsPerRequest)
	}
	return nil
}

func (s *Service) lookUpAgent(ctx context.Context, ws, id string) (AgentInfo, error) {
	if s.agents == nil {
		return AgentInfo{}, api.Errorf(api.Unavailable, "agent %s cannot be looked up: svc-memory is not configured", id)
	}
	info, err := s.agents.Agent(ctx, ws, id)
	if api.IsStatus(err, api.NotFound) {
		return AgentInfo{}, api.Errorf(api.NotFound, "agent %s does not exist", id)
	}
	return info, err
}

// annotationAgent is the annotation-level block of a root comment's agent
// block: who, which run, where and why.
func annotationAgent(b map[string]any) map[string]any {
	if b == nil {
		return nil
	}
	out := map[string]any{}
	for _, k := range []string{"agentId", "agentType", "agentSource", "executionId", "agentName", "url", "reason"} {
		if v, ok := b[k]; ok {
			out[k] = v
		}
	}
	return out
}

// findingID is the findingId an add echoes for an agent annotation.
func findingID(root CommentInput) string {
	reason, _ := root.Agent["reason"].(map[string]any)
	id, _ := reason["findingId"].(string)
	return id
}

// agentPage is the page an agent annotation was stamped for, as the
// agentUrls filter of delete compares it: scheme and host in lower case,
// no fragment, no trailing slash. "" when url is no absolute http(s) URL.
func agentPage(url string) string {
	scheme, rest, ok := strings.Cut(strings.TrimSpace(url), "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") || rest == "" {
		return ""
	}
	rest, _, _ = strings.Cut(rest, "#")
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	host, path := rest[:end], strings.TrimPrefix(rest[end:], "/")
	if host == "" {
		return ""
	}
	return strings.TrimRight(fmt.Sprintf("%s://%s/%s", scheme, strings.ToLower(host), path), "/")
}
