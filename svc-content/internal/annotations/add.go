package annotations

import (
	"context"
	"errors"
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// AddRequest is the body of /v2/commentannotations/add (§7.4).
//
// createOrganization and createDocument are accepted and have no effect:
// this service does not check that organizations or documents exist.
// verifyUserPermissions:true is refused, since author access is not checked
// here and silently skipping the check would let denied items through.
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
}

// errExists is addOne's answer for an annotationId already in use.
var errExists = errors.New("annotation already exists")

func (r *AddRequest) validate() error {
	if r.VerifyUserPermissions {
		return invalid("field verifyUserPermissions is not supported: author access is not verified by this service; omit it or send false")
	}
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

// Add stores new annotations. Each item is written on its own: an item whose
// annotationId already exists fails alone (success:false) while the others
// are written. Invalid input fails the whole request before any write.
func (s *Service) Add(ctx context.Context, ws string, req AddRequest) (map[string]AddItemResult, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	out := make(map[string]AddItemResult, len(req.CommentAnnotations))
	events := s.batch()
	defer events.publish(ctx) // also for the items written before a failure
	for _, item := range req.CommentAnnotations {
		// An item without an annotationId is keyed by the id generated for
		// it, so a caller can find its annotation in the answer.
		key := item.AnnotationID
		a, err := s.addOne(ctx, Scope{ws, req.OrganizationID, req.DocumentID}, item)
		if err != nil {
			if !errors.Is(err, errExists) {
				return nil, err
			}
			out[key] = AddItemResult{AnnotationID: item.AnnotationID, CommentIDs: []int64{},
				Message: fmt.Sprintf("annotation %s already exists", item.AnnotationID)}
			continue
		}
		ids := make([]int64, len(a.Comments))
		for j, c := range a.Comments {
			ids[j] = c.CommentID
		}
		if key == "" {
			key = a.AnnotationID
		}
		out[key] = AddItemResult{Success: true, AnnotationID: a.AnnotationID, CommentIDs: ids, Message: "Annotation added."}
		root := item.CommentData[0]
		events.add(ctx, EventAnnotationAdd, a, EventData{
			TargetComment: commentRef(a.Comments[0]), ActionUser: a.From,
			TriggerNotification: root.TriggerNotification, TriggerActivities: root.TriggerActivities,
		})
	}
	return out, nil
}

// addOne builds and inserts one annotation.
func (s *Service) addOne(ctx context.Context, sc Scope, in AnnotationInput) (*Annotation, error) {
	now := s.nowMs()
	if in.AnnotationID != "" {
		// Checked first so a duplicate spends no number and no feed rows;
		// the insert below still settles a race.
		err := s.annotations.FindOne(ctx, bson.M{"_id": annotationKey(sc.WorkspaceID, in.AnnotationID)},
			options.FindOne().SetProjection(bson.M{"_id": 1})).Err()
		if err == nil {
			return nil, errExists
		}
		if !mongodb.IsNotFound(err) {
			return nil, fmt.Errorf("look up annotation: %w", err)
		}
	}
	a := &Annotation{
		WorkspaceID: sc.WorkspaceID, OrganizationID: sc.OrganizationID, DocumentID: sc.DocumentID,
		AnnotationID: in.AnnotationID, Type: orDefault(in.Type, "comment"), CommentType: in.CommentType,
		SourceType: "rest-api", Location: in.Location, TargetElement: in.TargetElement,
		Status: in.Status, Priority: in.Priority, AssignedTo: normalizeUser(in.AssignedTo),
		From: normalizeUser(in.CommentData[0].From), Context: in.Context,
		CreatedAt: now, LastUpdated: now, Version: 1, Reactions: []Reaction{},
	}
	if a.AnnotationID == "" {
		a.AnnotationID = newID("ann_")
	}
	a.Key = annotationKey(sc.WorkspaceID, a.AnnotationID)
	if a.Status == nil {
		a.Status = map[string]any{"id": "OPEN", "name": "Open", "type": "default"}
	}
	if a.Type == "suggestion" {
		a.Suggestion = withStatus(in.Suggestion, "pending")
	}
	if in.Visibility != nil {
		a.VisibilityConfig = in.Visibility.config(userID(a.From))
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
	if a.AnnotationNumber, err = s.nextAnnotationNumber(ctx, sc.WorkspaceID, sc.OrganizationID, sc.DocumentID); err != nil {
		return nil, err
	}
	a.derive()
	a.IndexedRows = feedRows(a)
	if err := s.feedAdd(ctx, a, a.IndexedRows); err != nil {
		return nil, err
	}
	if _, err := s.annotations.InsertOne(ctx, a); err != nil {
		if mongodb.IsDuplicateKey(err) {
			return nil, errExists
		}
		return nil, fmt.Errorf("insert annotation: %w", err)
	}
	return a, nil
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
