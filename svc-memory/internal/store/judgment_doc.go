package store

import (
	"encoding/json"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/svc-memory/internal/judgment"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// judgmentDoc is a stored judgment. The agent object is kept as JSON text
// (it reads back exactly as derived; nothing queries inside it); the
// reviewer's id is top-level because filters use it.
type judgmentDoc struct {
	// ID is judgmentKey(workspaceId, recordId), so a judgment can be read
	// and written by exact _id (see Judgments.pointWrites).
	ID             string  `bson:"_id"`
	WorkspaceID    string  `bson:"workspaceId"`
	RecordID       string  `bson:"recordId"`
	OrganizationID string  `bson:"organizationId"`
	DocumentID     string  `bson:"documentId"`
	AnnotationID   string  `bson:"annotationId"`
	Decision       string  `bson:"decision"`
	Reasoning      string  `bson:"reasoning"`
	Content        string  `bson:"content"`
	Confidence     float64 `bson:"confidence"`
	ContentType    string  `bson:"contentType"`
	JudgeType      string  `bson:"judgeType"`
	ReviewerID     string  `bson:"reviewerId"`
	ReviewerName   string  `bson:"reviewerName"`
	ReviewerEmail  string  `bson:"reviewerEmail"`
	Agent          string  `bson:"agent,omitempty"`
	ActionType     string  `bson:"actionType"`
	CreatedAt      int64   `bson:"createdAt"`
	// SourceAt is when the event this version came from occurred: older
	// events do not overwrite it.
	SourceAt  int64 `bson:"sourceAt"`
	UpdatedAt int64 `bson:"updatedAt"`
	Rev       int64 `bson:"rev"`
	Indexed   bool  `bson:"indexed"`
}

func newJudgmentDoc(ws string, j judgment.Judgment) judgmentDoc {
	return judgmentDoc{
		ID: judgmentKey(ws, j.RecordID), WorkspaceID: ws, RecordID: j.RecordID, OrganizationID: j.OrganizationID, DocumentID: j.DocumentID,
		AnnotationID: j.AnnotationID, Decision: j.Decision, Reasoning: j.Reasoning, Content: j.Content,
		Confidence: j.Confidence, ContentType: j.ContentType, JudgeType: j.JudgeType,
		ReviewerID: j.Reviewer.UserID, ReviewerName: j.Reviewer.Name, ReviewerEmail: j.Reviewer.Email,
		Agent: string(j.Agent), ActionType: j.ActionType, CreatedAt: j.CreatedAt,
	}
}

func (d judgmentDoc) stored() memory.Stored {
	var agent json.RawMessage
	if d.Agent != "" {
		agent = json.RawMessage(d.Agent)
	}
	return memory.Stored{
		Judgment: judgment.Judgment{
			RecordID: d.RecordID, OrganizationID: d.OrganizationID, DocumentID: d.DocumentID,
			AnnotationID: d.AnnotationID, Decision: d.Decision, Reasoning: d.Reasoning, Content: d.Content,
			Confidence: d.Confidence, ContentType: d.ContentType, JudgeType: d.JudgeType,
			Reviewer: judgment.User{UserID: d.ReviewerID, Name: d.ReviewerName, Email: d.ReviewerEmail},
			Agent:    agent, ActionType: d.ActionType, CreatedAt: d.CreatedAt,
		},
		WorkspaceID: d.WorkspaceID, Rev: d.Rev, Indexed: d.Indexed,
	}
}

// filterDoc is the query of f within workspace ws.
func filterDoc(ws string, f memory.Filter) bson.D {
	d := bson.D{{Key: "workspaceId", Value: ws}}
	eq := func(field, v string) {
		if v != "" {
			d = append(d, bson.E{Key: field, Value: v})
		}
	}
	eq("organizationId", f.OrganizationID)
	eq("documentId", f.DocumentID)
	eq("judgeType", f.JudgeType)
	eq("contentType", f.ContentType)
	eq("reviewerId", f.ReviewerID)
	eq("annotationId", f.AnnotationID)
	if len(f.Decisions) > 0 {
		d = append(d, bson.E{Key: "decision", Value: bson.M{"$in": f.Decisions}})
	}
	if len(f.ExcludeDocumentIDs) > 0 {
		// A second condition on documentId: $and keeps both when the
		// document is also named.
		d = append(d, bson.E{Key: "$and", Value: bson.A{bson.M{"documentId": bson.M{"$nin": f.ExcludeDocumentIDs}}}})
	}
	if f.CreatedFrom != 0 || f.CreatedTo != 0 {
		window := bson.M{}
		if f.CreatedFrom != 0 {
			window["$gte"] = f.CreatedFrom
		}
		if f.CreatedTo != 0 {
			window["$lte"] = f.CreatedTo
		}
		d = append(d, bson.E{Key: "createdAt", Value: window})
	}
	return d
}

// judgmentKey is a judgment's _id: JSON text of the pair, so no choice of
// ids can make two pairs collide.
func judgmentKey(ws, recordID string) string {
	b, _ := json.Marshal([2]string{ws, recordID})
	return string(b)
}
