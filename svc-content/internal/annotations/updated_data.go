package annotations

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// updatedData is the parsed updatedData of annotations update.
type updatedData struct {
	Status        map[string]any `json:"status"`
	Priority      map[string]any `json:"priority"`
	AssignedTo    User           `json:"assignedTo"`
	Location      map[string]any `json:"location"`
	TargetElement map[string]any `json:"targetElement"`
	Context       map[string]any `json:"context"`
	Suggestion    map[string]any `json:"suggestion"`

	// string|null: null clears, absent keeps.
	RawResolvedBy      json.RawMessage `json:"resolvedByUserId"`
	RawStatusUpdatedBy json.RawMessage `json:"statusUpdatedByUserId"`
	ResolvedBy         optionalID      `json:"-"`
	StatusUpdatedBy    optionalID      `json:"-"`
}

// optionalID is a string|null field: set reports presence, "" means null.
type optionalID struct {
	set   bool
	value string
}

var suggestionStates = []string{"pending", "accepted", "rejected"}

// parseUpdatedData decodes and validates updatedData, naming fields in
// errors as updatedData.<field>.
func parseUpdatedData(raw json.RawMessage) (*updatedData, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil || len(items) != 1 {
			return nil, invalid("field updatedData must be one object")
		}
		raw = bytes.TrimSpace(items[0])
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, invalid("field updatedData is required and must be an object")
	}
	var d updatedData
	if err := json.Unmarshal(raw, &d); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, invalid("field updatedData.%s has the wrong type", te.Field)
		}
		return nil, invalid("field updatedData is malformed")
	}
	var err error
	if d.ResolvedBy, err = parseOptionalID(d.RawResolvedBy, "resolvedByUserId"); err != nil {
		return nil, err
	}
	if d.StatusUpdatedBy, err = parseOptionalID(d.RawStatusUpdatedBy, "statusUpdatedByUserId"); err != nil {
		return nil, err
	}
	return &d, d.validate()
}

func parseOptionalID(raw json.RawMessage, name string) (optionalID, error) {
	if raw == nil {
		return optionalID{}, nil
	}
	if string(raw) == "null" {
		return optionalID{set: true}, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || strings.TrimSpace(s) == "" {
		return optionalID{}, invalid("field updatedData.%s must be a non-empty string or null", name)
	}
	return optionalID{set: true, value: s}, nil
}

func (d *updatedData) validate() error {
	checks := []error{
		checkStatus(d.Status, "updatedData.status", false),
		checkPriority(d.Priority, "updatedData.priority", false),
		checkUser(d.AssignedTo, "updatedData.assignedTo", false),
		checkLocation(d.Location, "updatedData.location"),
	}
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	if st, ok := d.Suggestion["status"]; ok {
		if s, _ := st.(string); oneOf(s, "", suggestionStates...) != nil || s == "" {
			return invalid("field updatedData.suggestion.status must be one of pending, accepted, rejected")
		}
	}
	if d.Status == nil && d.Priority == nil && d.AssignedTo == nil && d.Location == nil && d.TargetElement == nil &&
		d.Context == nil && d.Suggestion == nil && !d.ResolvedBy.set && !d.StatusUpdatedBy.set {
		return invalid("field updatedData has nothing to update")
	}
	return nil
}

// apply changes a as the update says. A status that is not terminal always
// clears resolvedByUserId (and resolvedByUser), whatever else is sent.
func (d *updatedData) apply(a *Annotation, nowMs int64) error {
	if d.Suggestion != nil {
		if err := a.replaceSuggestion(d.Suggestion); err != nil {
			return err
		}
	}
	set := func(dst *map[string]any, v map[string]any) {
		if v != nil {
			*dst = v
		}
	}
	set(&a.Status, d.Status)
	set(&a.Priority, d.Priority)
	set(&a.Location, d.Location)
	set(&a.TargetElement, d.TargetElement)
	set(&a.Context, d.Context)
	if d.AssignedTo != nil {
		a.AssignedTo = normalizeUser(d.AssignedTo)
	}
	if d.StatusUpdatedBy.set {
		a.StatusUpdatedByUserID = d.StatusUpdatedBy.value
	}
	if d.ResolvedBy.set {
		a.ResolvedByUserID, a.ResolvedByUser = d.ResolvedBy.value, nil
		if d.ResolvedBy.value != "" {
			a.ResolvedByUser = a.knownUser(d.ResolvedBy.value)
		}
	}
	if t, _ := d.Status["type"].(string); d.Status != nil && t != terminalStatus {
		a.ResolvedByUserID, a.ResolvedByUser = "", nil
	}
	a.touch(nowMs)
	return nil
}

// replaceSuggestion replaces the suggestion wholesale; its status only
// moves forward from pending (absent keeps the current one).
func (a *Annotation) replaceSuggestion(next map[string]any) error {
	if a.Type != "suggestion" {
		return invalid("annotation %s is not a suggestion; updatedData.suggestion does not apply", a.AnnotationID)
	}
	current, _ := a.Suggestion["status"].(string)
	wanted, _ := next["status"].(string)
	if wanted == "" {
		wanted = orDefault(current, "pending")
	}
	if current != "" && current != "pending" && wanted != current {
		return invalid("suggestion of annotation %s is already %s; its status only moves forward from pending", a.AnnotationID, current)
	}
	a.Suggestion = withStatus(next, wanted)
	return nil
}
