package annotations

import (
	"fmt"
	"slices"
	"strings"
)

// VisibilityInput is the visibility of an added annotation (§7.1). It is
// stored and returned as visibilityConfig; reads through this API are made
// by the customer's backend and are not filtered by it.
type VisibilityInput struct {
	Type           string   `json:"type" validate:"oneof=public organizationPrivate restricted"`
	OrganizationID string   `json:"organizationId"`
	UserIDs        []string `json:"userIds" validate:"max=@content.ids"`
}

func (v *VisibilityInput) validate(path string) error {
	if err := oneOf(v.Type, path+".type", "public", "organizationPrivate", "restricted"); err != nil {
		return err
	}
	switch v.Type {
	case "organizationPrivate":
		if strings.TrimSpace(v.OrganizationID) == "" {
			return invalid("field %s.organizationId is required for type organizationPrivate", path)
		}
	case "restricted":
		if len(v.UserIDs) == 0 {
			return invalid("field %s.userIds is required for type restricted", path)
		}
	}
	for i, id := range v.UserIDs {
		if strings.TrimSpace(id) == "" {
			return invalid("field %s must hold non-empty ids", fmt.Sprintf("%s.userIds[%d]", path, i))
		}
	}
	return nil
}

// config is the stored visibilityConfig; a non-public one always lets the
// author see it.
func (v *VisibilityInput) config(author string) map[string]any {
	typ := orDefault(v.Type, "public")
	out := map[string]any{"type": typ}
	if typ == "public" {
		return out
	}
	if v.OrganizationID != "" {
		out["organizationId"] = v.OrganizationID
	}
	ids := slices.Clone(v.UserIDs)
	if author != "" && !slices.Contains(ids, author) {
		ids = append(ids, author)
	}
	out["userIds"] = ids
	return out
}
