package memory

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/opencollab/backend/svc-memory/internal/judgment"
)

// Suggest tuning.
const (
	suggestTopK      = 50  // precedents considered per scope
	minPrecedent     = 2   // records a side needs to be recommended
	topReasonsCount  = 3   // reasons listed per suggestion
	staleAfterDays   = 180 // precedent older than this is stale
	recommendApprove = "approve"
	recommendReject  = "reject"
)

// SuggestRequest is /v2/memory/suggest.
type SuggestRequest struct {
	Query          string
	OrganizationID string
	DocumentID     string
}

// Suggestion is a recommended decision and its grounds (rest-interface,
// Suggestion object).
type Suggestion struct {
	Recommendation  string   `json:"recommendation"`
	Confidence      float64  `json:"confidence"`
	BasedOn         int      `json:"basedOn"`
	Scope           string   `json:"scope"`
	ScopeLabel      string   `json:"scopeLabel"`
	TopReasons      []string `json:"topReasons"`
	UniqueReviewers int      `json:"uniqueReviewers"`
	Caveats         []string `json:"caveats"`
}

// SuggestResponse is the result of suggest; nil members encode as null.
type SuggestResponse struct {
	Primary  *Suggestion `json:"primary"`
	Conflict *Suggestion `json:"conflict"`
}

// Validate returns every issue of r.
func (r SuggestRequest) Validate() []Issue {
	var issues []Issue
	if strings.TrimSpace(r.Query) == "" {
		issues = append(issues, Issue{"query", "is required and must not be empty"})
	}
	return append(issues, checkLocation(r.OrganizationID, r.DocumentID)...)
}

// Suggest recommends approve or reject from precedent: the approve-side
// and reject-side judgments most similar to the query, taken from the
// narrowest scope (document, organization, workspace) with at least two
// relevant ones. primary is the leading side when at least two records
// support it; conflict is the other side when it has at least two too.
func (s *Service) Suggest(ctx context.Context, ws string, r SuggestRequest) (SuggestResponse, error) {
	if err := Invalid(r.Validate()); err != nil {
		return SuggestResponse{}, err
	}
	sides := slices.Concat(judgment.ApproveSide, judgment.RejectSide)
	for _, scope := range scopesOf(r.OrganizationID, r.DocumentID) {
		f := scopeFilter(scope, r.OrganizationID, r.DocumentID)
		f.Decisions = sides
		found, err := s.similar(ctx, ws, s.Review, r.Query, f, suggestTopK)
		if err != nil {
			return SuggestResponse{}, err
		}
		precedent := s.relevant(found)
		if len(precedent) >= minPrecedent {
			return s.suggestFrom(precedent, scope), nil
		}
	}
	return SuggestResponse{}, nil
}

// scopesOf lists the scopes to try, narrowest first.
func scopesOf(org, doc string) []string {
	var out []string
	if doc != "" {
		out = append(out, ScopeDocument)
	}
	if org != "" {
		out = append(out, ScopeOrganization)
	}
	return append(out, ScopeWorkspace)
}

func (s *Service) suggestFrom(precedent []scored, scope string) SuggestResponse {
	var approve, reject []scored
	for _, sc := range precedent {
		if slices.Contains(judgment.ApproveSide, sc.Decision) {
			approve = append(approve, sc)
		} else {
			reject = append(reject, sc)
		}
	}
	lead, leadRec, other, otherRec := approve, recommendApprove, reject, recommendReject
	if len(reject) > len(approve) || (len(reject) == len(approve) && weight(reject) > weight(approve)) {
		lead, leadRec, other, otherRec = reject, recommendReject, approve, recommendApprove
	}
	var resp SuggestResponse
	if len(lead) < minPrecedent {
		return resp
	}
	split := splitCaveat(len(approve), len(reject))
	resp.Primary = s.suggestion(leadRec, lead, weight(lead)+weight(other), scope, split)
	if len(other) >= minPrecedent {
		resp.Conflict = s.suggestion(otherRec, other, weight(lead)+weight(other), scope, split)
	}
	return resp
}

// suggestion describes one side. Its confidence is the side's share of
// the evidence, each record weighted by similarity and its own confidence.
func (s *Service) suggestion(rec string, side []scored, totalWeight float64, scope, split string) *Suggestion {
	sg := &Suggestion{
		Recommendation: rec, BasedOn: len(side), Scope: scope, ScopeLabel: scopeLabels[scope],
		TopReasons: topReasons(side), UniqueReviewers: uniqueReviewers(side), Caveats: []string{},
	}
	if totalWeight > 0 {
		sg.Confidence = round(weight(side) / totalWeight)
	}
	if split != "" {
		sg.Caveats = append(sg.Caveats, split)
	}
	if s.mostlyStale(side) {
		sg.Caveats = append(sg.Caveats, fmt.Sprintf("Most precedent is older than %d days", staleAfterDays))
	}
	return sg
}

func splitCaveat(approve, reject int) string {
	if approve == 0 || reject == 0 {
		return ""
	}
	return fmt.Sprintf("Evidence is split: %d approve vs %d reject", approve, reject)
}

func weight(side []scored) float64 {
	var w float64
	for _, sc := range side {
		w += max(sc.score, 0) * sc.Confidence
	}
	return w
}

// topReasons are the reasonings of the most similar records, each once
// (compared case- and space-insensitively).
func topReasons(side []scored) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, sc := range side { // most similar first
		key := strings.ToLower(strings.Join(strings.Fields(sc.Reasoning), " "))
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, truncate(sc.Reasoning, snippetRunes))
		if len(out) == topReasonsCount {
			break
		}
	}
	return out
}

func uniqueReviewers(side []scored) int {
	seen := map[string]bool{}
	for _, sc := range side {
		who := sc.Reviewer.UserID
		if who == "" {
			who = "name:" + sc.Reviewer.Name
		}
		seen[who] = true
	}
	return len(seen)
}

// mostlyStale reports whether more than half of the records are older
// than staleAfterDays.
func (s *Service) mostlyStale(side []scored) bool {
	cutoff := s.Now().UnixMilli() - staleAfterDays*dayMillis
	old := 0
	for _, sc := range side {
		if sc.CreatedAt < cutoff {
			old++
		}
	}
	return 2*old > len(side)
}
