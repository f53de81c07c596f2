package judgment

import (
	"encoding/json"
	"strings"
)

// Confidence of a human decision without an explicit score: explicit
// approve/reject verdicts are certain, other signals (comments, status
// changes, agreement) weigh less.
const (
	explicitConfidence = 1.0
	implicitConfidence = 0.8
)

// FromActivity derives the judgment an activity records, or ok=false when
// the activity is not a review decision (it is then acknowledged and
// skipped). org and doc locate the record when its metadata does not.
func FromActivity(a Activity, org, doc string) (j Judgment, ok bool) {
	decision, ok := decisionOf(a.ActionType, a.Changes)
	if !ok || a.ID == "" {
		return Judgment{}, false
	}
	entity, target := object(a.EntityData), object(a.EntityTargetData)
	user := object(a.ActionUser)
	j = Judgment{
		RecordID:       a.ID,
		OrganizationID: firstNonEmpty(a.Metadata.OrganizationID, org),
		DocumentID:     firstNonEmpty(a.Metadata.DocumentID, doc),
		AnnotationID:   a.TargetEntityID,
		Decision:       decision,
		Reasoning:      reasoningOf(a, entity),
		Content:        contentOf(a.EntityTargetData, target, entity),
		ContentType:    firstNonEmpty(str(entity["contentType"]), str(target["contentType"]), DefaultContentType),
		JudgeType:      JudgeHuman,
		Reviewer:       User{UserID: str(user["userId"]), Name: str(user["name"]), Email: str(user["email"])},
		ActionType:     a.ActionType,
		CreatedAt:      a.Timestamp,
	}
	agent, isAgent := agentOf(user, entity)
	if isAgent {
		j.JudgeType, j.Agent = JudgeAgent, agent
	}
	j.Confidence = confidenceOf(decision, entity)
	return j, true
}

// decisionOf maps an action type (and, for status changes, the new
// status) to a stored decision. The verb is the last dot-separated part:
// comment_annotation.approve, document.approve, comment.agree, ...
func decisionOf(actionType string, changes json.RawMessage) (string, bool) {
	at := strings.ToLower(strings.TrimSpace(actionType))
	if at == "comment.add" {
		return Comment, true
	}
	prefix, verb := "", at
	if i := strings.LastIndex(at, "."); i >= 0 {
		prefix, verb = at[:i], at[i+1:]
	}
	onDocument := prefix == "document"
	switch verb {
	case "status_change":
		return statusDecision(changes)
	case "approve", "approved", "accept", "accepted", "suggestion_accept":
		if onDocument {
			return DocumentApproved, true
		}
		return Approved, true
	case "reject", "rejected", "suggestion_reject":
		if onDocument {
			return DocumentRejected, true
		}
		return Rejected, true
	case Agree, Disagree, Endorse, InProgress, DocumentApproved, DocumentRejected:
		return verb, true
	case "resolve", "resolved":
		return Resolve, true
	}
	return "", false
}

// statusDecision reads changes.status.to, an object {id, name, type} or a
// bare status id: a terminal status (RESOLVED) resolves the thread, an
// ongoing one (IN_PROGRESS) marks it in progress; other statuses are not
// decisions.
func statusDecision(changes json.RawMessage) (string, bool) {
	status := object(changes)["status"]
	m, _ := status.(map[string]any)
	to := m["to"]
	id, typ := str(to), ""
	if tm, isObj := to.(map[string]any); isObj {
		id, typ = str(tm["id"]), str(tm["type"])
	}
	id, typ = strings.ToUpper(id), strings.ToLower(typ)
	switch {
	case id == "RESOLVED" || typ == "terminal":
		return Resolve, true
	case id == "IN_PROGRESS" || typ == "ongoing":
		return InProgress, true
	}
	return "", false
}

// agentOf returns the agent object when an agent decided: the actor is of
// type agent, or the entity carries an agent block.
func agentOf(user, entity map[string]any) (json.RawMessage, bool) {
	if block, isObj := entity["agent"].(map[string]any); isObj {
		b, _ := json.Marshal(block)
		return b, true
	}
	if strings.EqualFold(str(user["type"]), JudgeAgent) {
		b, _ := json.Marshal(map[string]any{"agentId": str(user["userId"]), "agentName": str(user["name"])})
		return b, true
	}
	return nil, false
}

// confidenceOf is the agent's own confidence (0–100 in its reason block)
// when there is one, else a fixed weight by kind of decision.
func confidenceOf(decision string, entity map[string]any) float64 {
	agent, _ := entity["agent"].(map[string]any)
	reason, _ := agent["reason"].(map[string]any)
	if n, isNum := reason["confidence"].(json.Number); isNum {
		if f, err := n.Float64(); err == nil {
			return min(max(f/100, 0), 1)
		}
	}
	switch decision {
	case Approved, Rejected, DocumentApproved, DocumentRejected:
		return explicitConfidence
	}
	return implicitConfidence
}
