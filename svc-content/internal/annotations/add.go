package annotations

import (
	"context"
	"fmt"
)

// AddRequest is the body of /v2/commentannotations/add (§7.4).
//
// createOrganization and createDocument have svc-identity create the
// organization and the document when missing (scope_ensure.go); without
// them nothing checks that they exist. verifyUserPermissions:true has svc-identity check every comment's author
// (verifyAuthors).
type AddRequest struct {
	OrganizationID        string            `json:"organizationId" validate:"required"`
	DocumentID            string            `json:"documentId" validate:"required"`
	CreateOrganization    bool              `json:"createOrganization"`
	CreateDocument        bool              `json:"createDocument"`
	VerifyUserPermissions bool              `json:"verifyUserPermissions"`
	CommentAnnotations    []AnnotationInput `json:"commentAnnotations" validate:"required,max=@content.annotations"`
}

// AnnotationInput is one item of commentAnnotations.
type AnnotationInput struct {
	AnnotationID  string           `json:"annotationId"`
	Type          string           `json:"type" validate:"oneof=comment suggestion"`
	CommentType   string           `json:"commentType" validate:"oneof=manual chart suggestion"`
	Location      map[string]any   `json:"location"`
	TargetElement map[string]any   `json:"targetElement"`
	CommentData   []CommentInput   `json:"commentData" validate:"required,max=@content.comments"`
	Status        map[string]any   `json:"status"`
	Priority      map[string]any   `json:"priority"`
	AssignedTo    User             `json:"assignedTo"`
	Context       map[string]any   `json:"context"`
	Visibility    *VisibilityInput `json:"visibility"`
	Suggestion    map[string]any   `json:"suggestion"`
	CreatedAt     *int64           `json:"createdAt"`
	LastUpdated   *int64           `json:"lastUpdated"`
}

// AddItemResult is one entry of the add result map.
type AddItemResult struct {
	Success      bool    `json:"success"`
	AnnotationID string  `json:"annotationId,omitempty"`
	CommentIDs   []int64 `json:"commentIds" validate:"max=@content.ids"`
	Message      string  `json:"message"`
	// FindingID echoes commentData[0].agent.reason.findingId.
	FindingID string `json:"findingId,omitempty"`
}

func (r *AddRequest) validate() error {
	if len(r.CommentAnnotations) == 0 {
		return invalid("field commentAnnotations is required")
	}
	seen := map[string]bool{}
	for i, item := range r.CommentAnnotations {
		path := fmt.Sprintf("commentAnnotations[%d]", i)
		if err := item.validate(path); err != nil {
			return err
		}
		if id := item.AnnotationID; id != "" {
			if seen[id] {
				return invalid("field %s.annotationId %q appears twice in the request", path, id)
			}
			seen[id] = true
		}
	}
	return nil
}

func (in AnnotationInput) validate(path string) error {
	if in.AnnotationID != "" {
		if err := checkAnnotationID(in.AnnotationID, path+".annotationId"); err != nil {
			return err
		}
	}
	checks := []error{
		oneOf(in.Type, path+".type", "comment", "suggestion"),
		oneOf(in.CommentType, path+".commentType", "manual", "chart", "suggestion"),
		checkLocation(in.Location, path+".location"),
		checkStatus(in.Status, path+".status", true),
		checkPriority(in.Priority, path+".priority", true),
		checkUser(in.AssignedTo, path+".assignedTo", false),
		checkTimes(path+".", map[string]*int64{"createdAt": in.CreatedAt, "lastUpdated": in.LastUpdated}),
		validateComments(in.CommentData, path+".commentData"),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if in.Visibility != nil {
		return in.Visibility.validate(path + ".visibility")
	}
	return nil
}

// Add stores new annotations. An item whose annotationId already exists
// fails alone (success:false) while the others are written. Invalid input
// fails the whole request before any write.
//
// The writes are batched and ordered so a failure part way shows nothing
// half written, and the same request again completes it (items written by
// the failed attempt answer "already exists"; send annotationIds to retry
// safely): the annotation numbers (one counter step for the request), the
// feed entries of every new annotation (one insert of the heads and one of
// the buckets of the feeds they start, a step per feed that exists; pages
// skip entries until an annotation backs them), then one unordered insert
// of the annotations.
func (s *Service) Add(ctx context.Context, ws string, req AddRequest) (map[string]AddItemResult, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	sc := Scope{ws, req.OrganizationID, req.DocumentID}
	var comments []CommentInput
	for _, in := range req.CommentAnnotations {
		comments = append(comments, in.CommentData...)
	}
	if err := s.resolveAgents(ctx, ws, comments); err != nil {
		return nil, err
	}
	if err := s.ensureScope(ctx, sc, req.CreateOrganization, req.CreateDocument); err != nil {
		return nil, err
	}
	if req.VerifyUserPermissions {
		// Every item's authors, those of items that will answer "already
		// exists" too: the request is refused whole or not at all.
		if err := s.verifyAuthors(ctx, sc, comments); err != nil {
			return nil, err
		}
	}
	out := make(map[string]AddItemResult, len(req.CommentAnnotations))
	fresh, err := s.newAnnotations(ctx, sc, req.CommentAnnotations, out)
	if err != nil {
		return nil, err
	}
	if err := s.feedAddAll(ctx, fresh); err != nil {
		return nil, err
	}
	added, err := s.insertAnnotations(ctx, fresh)
	if err != nil {
		return nil, err
	}
	events := s.batch()
	defer events.publish(ctx)
	for i, a := range fresh {
		if !added[i] {
			out[a.AnnotationID] = existsResult(a.AnnotationID)
			continue
		}
		ids := make([]int64, len(a.Comments))
		for j, c := range a.Comments {
			ids[j] = c.CommentID
		}
		// An item without an annotationId is keyed by the id generated
		// for it, so a caller can find its annotation in the answer.
		root := a.input.CommentData[0]
		out[a.AnnotationID] = AddItemResult{Success: true, AnnotationID: a.AnnotationID, CommentIDs: ids, Message: "Annotation added.", FindingID: findingID(root)}
		events.add(ctx, EventAnnotationAdd, a.Annotation, EventData{
			TargetComment: commentRef(a.Comments[0]), ActionUser: a.From,
			TriggerNotification: root.TriggerNotification, TriggerActivities: root.TriggerActivities,
		})
	}
	return out, nil
}

// newAnnotation is an annotation to insert with the item it comes from.
type newAnnotation struct {
	*Annotation
	input AnnotationInput
}

func existsResult(id string) AddItemResult {
	return AddItemResult{AnnotationID: id, CommentIDs: []int64{}, Message: fmt.Sprintf("annotation %s already exists", id)}
}

// newAnnotations builds the annotations of the items whose annotationId is
// not taken (answering the others in out), numbered in request order.
// Taken ids are read first, by _id (the one filter the embedded store
// serves from an index), so a duplicate spends no number and no feed rows;
// the insert still settles a race.
func (s *Service) newAnnotations(ctx context.Context, sc Scope, items []AnnotationInput, out map[string]AddItemResult) ([]newAnnotation, error) {
	var fresh []newAnnotation
	for _, in := range items {
		if in.AnnotationID != "" {
			taken, err := s.annotations.Exists(ctx, sc.WorkspaceID, in.AnnotationID)
			if err != nil {
				return nil, err
			}
			if taken {
				out[in.AnnotationID] = existsResult(in.AnnotationID)
				continue
			}
		}
		a, err := s.build(sc, in)
		if err != nil {
			return nil, err
		}
		fresh = append(fresh, newAnnotation{a, in})
	}
	if len(fresh) == 0 {
		return nil, nil
	}
	last, err := s.counters.Reserve(ctx, sc, int64(len(fresh)))
	if err != nil {
		return nil, err
	}
	for i, a := range fresh {
		a.AnnotationNumber = last - int64(len(fresh)) + int64(i) + 1
		a.derive()
		a.IndexedRows = feedRows(a.Annotation)
	}
	return fresh, nil
}

// build makes the annotation of one item, without its number.
func (s *Service) build(sc Scope, in AnnotationInput) (*Annotation, error) {
	now := s.nowMs()
	a := &Annotation{
		WorkspaceID: sc.WorkspaceID, OrganizationID: sc.OrganizationID, DocumentID: sc.DocumentID,
		AnnotationID: in.AnnotationID, Type: orDefault(in.Type, "comment"), CommentType: in.CommentType,
		SourceType: sourceRESTAPI, Location: in.Location, TargetElement: in.TargetElement,
		Status: in.Status, Priority: in.Priority, AssignedTo: normalizeUser(in.AssignedTo),
		From: normalizeUser(in.CommentData[0].From), Context: in.Context,
		CreatedAt: now, LastUpdated: now, Version: 1, Reactions: []Reaction{},
	}
	if a.AnnotationID == "" {
		a.AnnotationID = newID("ann_")
	}
	if a.Status == nil {
		a.Status = map[string]any{"id": "OPEN", "name": "Open", "type": "default"}
	}
	if a.Type == "suggestion" {
		a.Suggestion = withStatus(in.Suggestion, "pending")
	}
	if in.Visibility != nil {
		a.VisibilityConfig = in.Visibility.config(userID(a.From))
	}
	if root := in.CommentData[0]; root.Agent != nil {
		a.SourceType, a.Agent = sourceAgent, annotationAgent(root.Agent)
		url, _ := root.Agent["url"].(string)
		a.AgentPage = agentPage(url)
	}
	if in.CreatedAt != nil {
		a.CreatedAt = *in.CreatedAt
	}
	a.LastUpdated = a.CreatedAt
	if in.LastUpdated != nil {
		a.LastUpdated = *in.LastUpdated
	}
	ids, err := assignCommentIDs(a, in.CommentData)
	if err != nil {
		return nil, err
	}
	for i, c := range in.CommentData {
		a.Comments = append(a.Comments, c.newComment(ids[i], now))
	}
	return a, nil
}

// insertAnnotations inserts the annotations with one unordered insert and
// reports which were inserted; one whose id another writer took meanwhile
// is not (a duplicate key), anything else fails the request.
func (s *Service) insertAnnotations(ctx context.Context, list []newAnnotation) ([]bool, error) {
	added := make([]bool, len(list))
	if len(list) == 0 {
		return added, nil
	}
	docs := make([]*Annotation, len(list))
	for i, a := range list {
		docs[i], added[i] = a.Annotation, true
	}
	taken, err := s.annotations.InsertNew(ctx, docs)
	if err != nil {
		return nil, err
	}
	for _, i := range taken {
		added[i] = false
	}
	return added, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func oneOf(v, path string, allowed ...string) error {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return invalid("field %s has unknown value %q", path, v)
}

// withStatus copies m with status set.
func withStatus(m map[string]any, status string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	out["status"] = status
	return out
}
