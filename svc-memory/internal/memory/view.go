package memory

import (
	"encoding/json"
	"math"

	"github.com/opencollab/backend/svc-memory/internal/judgment"
)

// Record is a judgment as judgments/query returns it (adjacent-operations
// §13) and the common part of a search result.
type Record struct {
	RecordID       string          `json:"recordId"`
	Reasoning      string          `json:"reasoning"`
	Decision       string          `json:"decision"`
	Confidence     float64         `json:"confidence"`
	JudgeType      string          `json:"judgeType"`
	ContentType    string          `json:"contentType"`
	ActionUser     judgment.User   `json:"actionUser"`
	CreatedAt      int64           `json:"createdAt"`
	OrganizationID string          `json:"organizationId"`
	DocumentID     string          `json:"documentId"`
	AnnotationID   string          `json:"annotationId"`
	Agent          json.RawMessage `json:"agent"` // null for humans
}

// Result is a search result (rest-interface, Judgment record).
type Result struct {
	Record
	Similarity float64 `json:"similarity"`
	Scope      string  `json:"scope"`
}

func (j Stored) record() Record {
	return Record{
		RecordID: j.RecordID, Reasoning: j.Reasoning, Decision: j.Decision, Confidence: j.Confidence,
		JudgeType: j.JudgeType, ContentType: j.ContentType, ActionUser: j.Reviewer, CreatedAt: j.CreatedAt,
		OrganizationID: j.OrganizationID, DocumentID: j.DocumentID, AnnotationID: j.AnnotationID, Agent: j.Agent,
	}
}

// records returns the wire shapes, never nil.
func records(js []Stored) []Record {
	out := make([]Record, len(js))
	for i, j := range js {
		out[i] = j.record()
	}
	return out
}

// round keeps scores readable: 4 decimals, never negative (cosine can dip
// below 0 for unrelated texts).
func round(x float64) float64 {
	return math.Max(0, math.Round(x*1e4)/1e4)
}
