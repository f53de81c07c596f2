package memory

import (
	"context"
	"fmt"
	"math"
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
	// recencyHalfLifeDays halves a precedent's weight per this many days
	// of age: a newer decision outweighs an equally relevant older one.
	recencyHalfLifeDays = 365
	evidenceListed      = 5 // evidence entries listed per suggestion
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
	// Explanation and Evidence are additions to the interface's shape:
	// why this side leads, and the judgments it rests on with their
	// weights.
	Explanation string     `json:"explanation"`
	Evidence    []Evidence `json:"evidence"`
}

// Evidence is one judgment a suggestion weighed: its relevance to the
// query (normalised to the best match), its recency factor, and its
// weight: relevance squared (the strongest matches dominate) times recency
// times the judgment's own confidence.
type Evidence struct {
	RecordID  string  `json:"recordId"`
	Decision  string  `json:"decision"`
	Relevance float64 `json:"relevance"`
	Recency   float64 `json:"recency"`
	Weight    float64 `json:"weight"`
	CreatedAt int64   `json:"createdAt"`
	Snippet   string  `json:"snippet"`
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
// and reject-side judgments relevant to the query (hybrid retrieval, see
// relevant), taken from the narrowest scope with at least two relevant
// ones: document, then organization; a request without organizationId
// uses the workspace. A request naming an organization never draws on
// other organizations' judgments. Each judgment weighs relevance² x recency
// x its own confidence; the side with the larger weight leads. primary is
// the leading side when at least two records support it; conflict is the
// other side when it has at least two too.
func (s *Service) Suggest(ctx context.Context, ws string, r SuggestRequest) (SuggestResponse, error) {
	if err := Invalid(r.Validate()); err != nil {
		return SuggestResponse{}, err
	}
	sides := slices.Concat(judgment.ApproveSide, judgment.RejectSide)
	for _, scope := range scopesOf(r.OrganizationID, r.DocumentID) {
		f := scopeFilter(scope, r.OrganizationID, r.DocumentID)
		f.Decisions = sides
		found, err := s.retrieveItem(ctx, ws, r.Query, f, suggestTopK)
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

// retrieveItem finds precedent for an item: a suggest query describes the
// item under review, so it is matched against what reviewers said
// (review vectors and terms) and against the content they reviewed; each
// judgment keeps the better of the two matches.
func (s *Service) retrieveItem(ctx context.Context, ws, query string, f Filter, limit int) ([]scored, error) {
	byReview, err := s.retrieve(ctx, ws, false, query, f, limit)
	if err != nil {
		return nil, err
	}
	byContent, err := s.retrieve(ctx, ws, true, query, f, limit)
	if err != nil {
		return nil, err
	}
	at := map[string]int{}
	for i, sc := range byReview {
		at[sc.RecordID] = i
	}
	for _, sc := range byContent {
		i, ok := at[sc.RecordID]
		if !ok {
			at[sc.RecordID] = len(byReview)
			byReview = append(byReview, sc)
			continue
		}
		r := &byReview[i]
		r.rel, r.match = max(r.rel, sc.rel), max(r.match, sc.match)
		r.cos, r.cov = max(r.cos, sc.cos), max(r.cov, sc.cov)
		r.matched, r.words = max(r.matched, sc.matched), max(r.words, sc.words)
	}
	slices.SortStableFunc(byReview, func(a, b scored) int { return -cmpFloat(a.rel, b.rel) })
	return byReview, nil
}

// scopesOf lists the scopes to try, narrowest first; the workspace only
// when no organization is named.
func scopesOf(org, doc string) []string {
	var out []string
	if doc != "" {
		out = append(out, ScopeDocument)
	}
	if org != "" {
		return append(out, ScopeOrganization)
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
	if s.weight(reject) > s.weight(approve) {
		lead, leadRec, other, otherRec = reject, recommendReject, approve, recommendApprove
	}
	var resp SuggestResponse
	if len(lead) < minPrecedent {
		return resp
	}
	split := splitCaveat(len(approve), len(reject))
	total := s.weight(lead) + s.weight(other)
	resp.Primary = s.suggestion(leadRec, lead, total, scope, split)
	resp.Primary.Explanation = s.explain(leadRec, lead, otherRec, other)
	if len(other) >= minPrecedent {
		resp.Conflict = s.suggestion(otherRec, other, total, scope, split)
		resp.Conflict.Explanation = s.explain(otherRec, other, leadRec, lead)
	}
	return resp
}

// suggestion describes one side. Its confidence is the side's share of
// the weighed evidence.
func (s *Service) suggestion(rec string, side []scored, totalWeight float64, scope, split string) *Suggestion {
	sg := &Suggestion{
		Recommendation: rec, BasedOn: len(side), Scope: scope, ScopeLabel: scopeLabels[scope],
		TopReasons: topReasons(side), UniqueReviewers: uniqueReviewers(side), Caveats: []string{},
		Evidence: s.evidenceOf(side),
	}
	if totalWeight > 0 {
		sg.Confidence = round(s.weight(side) / totalWeight)
	}
	if split != "" {
		sg.Caveats = append(sg.Caveats, split)
	}
	if s.mostlyStale(side) {
		sg.Caveats = append(sg.Caveats, fmt.Sprintf("Most precedent is older than %d days", staleAfterDays))
	}
	return sg
}

// explain says in one sentence why a side has the weight it has.
func (s *Service) explain(rec string, side []scored, otherRec string, other []scored) string {
	text := fmt.Sprintf("%d %s-side judgment(s) weigh %.2f (relevance² x recency x confidence)",
		len(side), rec, s.weight(side))
	if len(other) > 0 {
		text += fmt.Sprintf(" against %.2f for %d %s-side", s.weight(other), len(other), otherRec)
	}
	if len(side) > 0 {
		text += fmt.Sprintf("; the most relevant is %s: %q", side[0].RecordID, truncate(side[0].Reasoning, 120))
	}
	return text + "."
}

func (s *Service) evidenceOf(side []scored) []Evidence {
	out := []Evidence{}
	for _, sc := range side[:min(len(side), evidenceListed)] {
		out = append(out, Evidence{RecordID: sc.RecordID, Decision: sc.Decision, Relevance: round(sc.match),
			Recency: round(s.recency(sc)), Weight: round(s.weightOf(sc)), CreatedAt: sc.CreatedAt, Snippet: snippet(sc.Stored)})
	}
	return out
}

// recency halves per recencyHalfLifeDays of age.
func (s *Service) recency(sc scored) float64 {
	age := float64(s.Now().UnixMilli()-sc.CreatedAt) / float64(dayMillis)
	return math.Exp2(-max(age, 0) / recencyHalfLifeDays)
}

func (s *Service) weightOf(sc scored) float64 {
	return sc.match * sc.match * s.recency(sc) * sc.Confidence
}

func (s *Service) weight(side []scored) float64 {
	var w float64
	for _, sc := range side {
		w += s.weightOf(sc)
	}
	return w
}

func splitCaveat(approve, reject int) string {
	if approve == 0 || reject == 0 {
		return ""
	}
	return fmt.Sprintf("Evidence is split: %d approve vs %d reject", approve, reject)
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
