package activity

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// Update applies each patch to the record with its id in org and reports
// per id: a missing or immutable record is success:false, never an error.
// Several patches of one id merge, the later fields winning. One read, one
// bulk write, one read back and one publish for the batch.
func (s *Service) Update(ctx context.Context, ws, org string, patches []Patch) (map[string]ItemResult, error) {
	if len(patches) > MaxPerCall {
		return nil, api.Errorf(api.InvalidArgument, "field activities accepts at most %d items", MaxPerCall)
	}
	merged, err := mergePatches(patches)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(merged))
	for i, p := range merged {
		ids[i] = p.ID
	}
	found, err := s.store.FindByIDs(ctx, ws, org, ids)
	if err != nil {
		return nil, err
	}
	existing := make(map[string]Record, len(found))
	for _, r := range found {
		existing[r.ID] = r
	}
	results := make(map[string]ItemResult, len(merged))
	var apply []Patch
	for _, p := range merged {
		r, ok := existing[p.ID]
		switch {
		case !ok:
			results[p.ID] = ItemResult{Message: msgNotFound}
		case r.Immutable:
			results[p.ID] = ItemResult{Message: msgImmutableNoUpdate}
		default:
			apply = append(apply, p)
		}
	}
	if len(apply) == 0 {
		return results, nil
	}
	updated, err := s.applyAndReread(ctx, ws, org, apply)
	if err != nil {
		return nil, err
	}
	for _, p := range apply {
		results[p.ID] = ItemResult{Success: true, Message: msgUpdated}
	}
	if err := s.publish(ctx, ws, EventUpdate, updated); err != nil {
		return nil, err
	}
	return results, nil
}

// applyAndReread writes the patches and reads the records back, so the
// events carry what is stored.
func (s *Service) applyAndReread(ctx context.Context, ws, org string, apply []Patch) ([]Record, error) {
	if err := s.store.ApplyPatches(ctx, ws, org, apply); err != nil {
		return nil, err
	}
	ids := make([]string, len(apply))
	for i, p := range apply {
		ids[i] = p.ID
	}
	return s.store.FindByIDs(ctx, ws, org, ids)
}

// mergePatches validates the patches and folds those of one id together,
// keeping the order of first appearance.
func mergePatches(patches []Patch) ([]Patch, error) {
	at := make(map[string]int, len(patches))
	out := make([]Patch, 0, len(patches))
	for i, p := range patches {
		p, err := normalizePatch(fmt.Sprintf("activities[%d]", i), p)
		if err != nil {
			return nil, err
		}
		j, seen := at[p.ID]
		if !seen {
			at[p.ID] = len(out)
			out = append(out, p)
			continue
		}
		out[j] = overlay(out[j], p)
	}
	return out, nil
}

// normalizePatch checks and compacts the free-form fields of p, keeping
// JSON null (clear) distinguishable from absent (nil).
func normalizePatch(field string, p Patch) (Patch, error) {
	var r Record
	if err := normalizeFree(field, &r, p.Changes, p.EntityData, p.EntityTargetData, p.DisplayMessageTemplateData); err != nil {
		return Patch{}, err
	}
	p.Changes = keepNull(p.Changes, r.Changes)
	p.EntityData = keepNull(p.EntityData, r.EntityData)
	p.EntityTargetData = keepNull(p.EntityTargetData, r.EntityTargetData)
	p.DisplayMessageTemplateData = keepNull(p.DisplayMessageTemplateData, r.DisplayMessageTemplateData)
	return p, nil
}

func keepNull(sent, normalized json.RawMessage) json.RawMessage {
	if sent != nil && normalized == nil {
		return json.RawMessage("null") // sent as null: clear
	}
	return normalized
}

// overlay returns base with every field that next sets.
func overlay(base, next Patch) Patch {
	if next.Changes != nil {
		base.Changes = next.Changes
	}
	if next.EntityData != nil {
		base.EntityData = next.EntityData
	}
	if next.EntityTargetData != nil {
		base.EntityTargetData = next.EntityTargetData
	}
	if next.DisplayMessageTemplate != nil {
		base.DisplayMessageTemplate = next.DisplayMessageTemplate
	}
	if next.DisplayMessageTemplateData != nil {
		base.DisplayMessageTemplateData = next.DisplayMessageTemplateData
	}
	if next.ActionIcon != nil {
		base.ActionIcon = next.ActionIcon
	}
	return base
}

// IsClear reports whether a patch value clears its field.
func IsClear(v json.RawMessage) bool { return string(v) == "null" }
