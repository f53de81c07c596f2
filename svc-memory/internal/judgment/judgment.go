// Package judgment derives review judgments from activity log records
// (DESIGN.md, Memory): which activities are review decisions, what was
// decided, by whom, why, and about what content. It is pure: no storage,
// no vectors.
package judgment

import (
	"encoding/json"

	"github.com/opencollab/backend/pkg/activityevent"
)

// Decision values stored on judgments (DESIGN.md, Memory).
const (
	Comment          = "comment"
	Resolve          = "resolve"
	Approved         = "approved"
	Rejected         = "rejected"
	InProgress       = "in_progress"
	Agree            = "agree"
	Disagree         = "disagree"
	Endorse          = "endorse"
	DocumentApproved = "document_approved"
	DocumentRejected = "document_rejected"
)

// Decisions lists every stored decision value.
var Decisions = []string{Comment, Resolve, Approved, Rejected, InProgress, Agree, Disagree, Endorse, DocumentApproved, DocumentRejected}

// ApproveSide and RejectSide are the decisions that count for and against
// an item in suggest.
var (
	ApproveSide = []string{Approved, Agree, Endorse, DocumentApproved}
	RejectSide  = []string{Rejected, Disagree, DocumentRejected}
)

// Judge types.
const (
	JudgeHuman = "human"
	JudgeAgent = "agent"
)

// DefaultContentType is the content type of a judgment whose activity
// names none.
const DefaultContentType = "comment"

// User is who decided, as the records return it.
type User struct {
	UserID string `json:"userId"`
	Name   string `json:"name"`
	Email  string `json:"email"`
}

// Judgment is one review decision derived from an activity record. The
// record id is the activity id, so re-deriving the same activity replaces
// the judgment instead of adding one.
type Judgment struct {
	RecordID       string
	OrganizationID string
	DocumentID     string
	AnnotationID   string
	Decision       string
	Reasoning      string
	// Content is the text of the reviewed content (embedded for
	// embeddingType content); it may be empty.
	Content     string
	Confidence  float64
	ContentType string
	JudgeType   string
	Reviewer    User
	// Agent is the agent object when an agent decided, nil otherwise.
	Agent      json.RawMessage
	ActionType string
	CreatedAt  int64 // epoch ms: the activity's timestamp
}

// ReviewText is what embeddingType review embeds: decision and reasoning.
func (j Judgment) ReviewText() string {
	if j.Reasoning == "" {
		return j.Decision
	}
	return j.Decision + ": " + j.Reasoning
}

// ContentText is what embeddingType content embeds: the reviewed content,
// else the reasoning (a content search then still finds the record by what
// was said about it).
func (j Judgment) ContentText() string {
	if j.Content != "" {
		return j.Content
	}
	return j.Reasoning
}

// Activity is an activity log record as svc-activity's get returns it and
// its events carry.
type Activity = activityevent.Record
