package memory

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-memory/internal/judgment"
)

// Issue is one invalid field of a request; a failed validation reports all
// of them in error.details.issues.
type Issue struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Invalid is the INVALID_ARGUMENT error naming every issue, one per field
// (the first found: a wrong type before a rule); nil when there are none.
func Invalid(issues []Issue) error {
	if len(issues) == 0 {
		return nil
	}
	seen := map[string]bool{}
	kept := issues[:0:0]
	for _, is := range issues {
		if !seen[is.Field] {
			seen[is.Field] = true
			kept = append(kept, is)
		}
	}
	issues = kept
	msgs := make([]string, len(issues))
	for i, is := range issues {
		msgs[i] = "field " + is.Field + " " + is.Message
	}
	return api.Errorf(api.InvalidArgument, "%s", strings.Join(msgs, "; ")).
		WithDetails(map[string]any{"issues": issues})
}

// Scopes of search and suggest. apiKey is the whole workspace.
const (
	ScopeDocument     = "document"
	ScopeOrganization = "organization"
	ScopeWorkspace    = "apiKey"
)

var scopeLabels = map[string]string{
	ScopeDocument: "this document", ScopeOrganization: "this organization", ScopeWorkspace: "this workspace",
}

// Embedding types of search.
const (
	EmbeddingReview  = "review"
	EmbeddingContent = "content"
)

// Bounds shared by the operations.
const (
	maxRecencyDays = 365
	dayMillis      = int64(24 * time.Hour / time.Millisecond)
)

// Filters are the optional filters of search and ask. Decision accepts a
// stored decision value, or approve / reject for every decision of that
// side.
type Filters struct {
	Decisions          []string
	JudgeType          string
	ContentType        string
	ReviewerID         string
	AnnotationID       string
	DateRange          *DateRange
	ExcludeDocumentIDs []string
}

// DateRange bounds createdAt, inclusive epoch ms; nil sides are open.
type DateRange struct {
	Start, End *int64
}

// decisionAliases expand the recommendation words of suggest.
var decisionAliases = map[string][]string{"approve": judgment.ApproveSide, "reject": judgment.RejectSide}

// validate checks the filters; org is the request's organizationId.
func (f Filters) validate(org string) []Issue {
	var issues []Issue
	for _, d := range f.Decisions {
		if _, alias := decisionAliases[d]; !alias && !slices.Contains(judgment.Decisions, d) {
			issues = append(issues, Issue{"filters.decision", fmt.Sprintf("has unknown value %q; allowed: approve, reject, %s",
				d, strings.Join(judgment.Decisions, ", "))})
		}
	}
	if f.JudgeType != "" && f.JudgeType != judgment.JudgeHuman && f.JudgeType != judgment.JudgeAgent {
		issues = append(issues, Issue{"filters.judgeType", fmt.Sprintf("has unknown value %q; allowed: human, agent", f.JudgeType)})
	}
	if f.AnnotationID != "" && org == "" {
		issues = append(issues, Issue{"filters.annotationId", "requires organizationId"})
	}
	if r := f.DateRange; r != nil && r.Start != nil && r.End != nil && *r.Start > *r.End {
		issues = append(issues, Issue{"filters.dateRange", "start must not be after end"})
	}
	return issues
}

// apply narrows base by the filters (the date range unless recency
// replaces it).
func (f Filters) apply(base Filter) Filter {
	for _, d := range f.Decisions {
		if side, alias := decisionAliases[d]; alias {
			base.Decisions = append(base.Decisions, side...)
		} else {
			base.Decisions = append(base.Decisions, d)
		}
	}
	base.JudgeType, base.ContentType, base.ReviewerID = f.JudgeType, f.ContentType, f.ReviewerID
	base.AnnotationID = f.AnnotationID
	base.ExcludeDocumentIDs = f.ExcludeDocumentIDs
	if r := f.DateRange; r != nil {
		if r.Start != nil {
			base.CreatedFrom = *r.Start
		}
		if r.End != nil {
			base.CreatedTo = *r.End
		}
	}
	return base
}

// checkLocation checks that documentId comes with organizationId.
func checkLocation(org, doc string) []Issue {
	if doc != "" && org == "" {
		return []Issue{{"documentId", "requires organizationId"}}
	}
	return nil
}

// checkRecency checks recencyDays.
func checkRecency(days *int) []Issue {
	if days != nil && (*days < 1 || *days > maxRecencyDays) {
		return []Issue{{"recencyDays", fmt.Sprintf("must be between 1 and %d", maxRecencyDays)}}
	}
	return nil
}

// defaultScope is the narrowest scope the location names.
func defaultScope(org, doc string) string {
	switch {
	case doc != "":
		return ScopeDocument
	case org != "":
		return ScopeOrganization
	}
	return ScopeWorkspace
}

// scopeFilter is the filter of a scope around org and doc.
func scopeFilter(scope, org, doc string) Filter {
	switch scope {
	case ScopeDocument:
		return Filter{OrganizationID: org, DocumentID: doc}
	case ScopeOrganization:
		return Filter{OrganizationID: org}
	}
	return Filter{}
}

// recordScope is how close a record is to the request's location: its
// document, its organization, or only its workspace.
func recordScope(j Stored, org, doc string) string {
	switch {
	case org != "" && j.OrganizationID == org && doc != "" && j.DocumentID == doc:
		return ScopeDocument
	case org != "" && j.OrganizationID == org:
		return ScopeOrganization
	}
	return ScopeWorkspace
}

// ParseInstant reads a dateRange bound: epoch ms (a number or a string of
// digits) or an ISO-8601 date-time or date. A bare date as an end bound
// means the end of that day (UTC).
func ParseInstant(s string, end bool) (int64, error) {
	s = strings.TrimSpace(s)
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		if ms < 0 {
			return 0, fmt.Errorf("must not be negative")
		}
		return ms, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UnixMilli(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UnixMilli(), nil
		}
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		if end {
			return t.Add(24*time.Hour).UnixMilli() - 1, nil
		}
		return t.UnixMilli(), nil
	}
	return 0, fmt.Errorf("must be an ISO-8601 date-time or epoch milliseconds")
}
