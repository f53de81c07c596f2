package annotations

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/opencollab/backend/pkg/api"
)

// ReservedPrefix starts keys the server makes up (result keys of items
// without a caller id); caller ids may not use it.
const ReservedPrefix = "__svc_"

// maxIDLength bounds caller-chosen ids.
const maxIDLength = 256

func invalid(format string, args ...any) error {
	return api.Errorf(api.InvalidArgument, format, args...)
}

// checkAnnotationID validates a caller-chosen annotation id.
func checkAnnotationID(id, path string) error {
	switch {
	case strings.TrimSpace(id) != id || id == "":
		return invalid("field %s must be a non-empty id without surrounding spaces", path)
	case strings.Contains(id, ":"):
		return invalid("field %s must not contain ':'", path)
	case strings.HasPrefix(id, ReservedPrefix):
		return invalid("field %s must not start with the reserved prefix %q", path, ReservedPrefix)
	case utf8.RuneCountInString(id) > maxIDLength:
		return invalid("field %s must be at most %d characters", path, maxIDLength)
	}
	return nil
}

// checkUser validates a User object: userId is a non-blank string.
func checkUser(u User, path string, required bool) error {
	if u == nil {
		if required {
			return invalid("field %s is required", path)
		}
		return nil
	}
	if id, ok := u["userId"].(string); !ok || strings.TrimSpace(id) == "" {
		return invalid("field %s.userId is required and must be a string", path)
	}
	return nil
}

// normalizeUser copies u and fills `initial` from the name when absent.
func normalizeUser(u User) User {
	if u == nil {
		return nil
	}
	out := make(User, len(u)+1)
	for k, v := range u {
		out[k] = v
	}
	if _, ok := out["initial"]; !ok {
		if name, _ := out["name"].(string); strings.TrimSpace(name) != "" {
			r, _ := utf8.DecodeRuneInString(strings.TrimSpace(name))
			out["initial"] = string(unicode.ToUpper(r))
		}
	}
	return out
}

// requireStrings checks that each key of m is a non-blank string.
func requireStrings(m map[string]any, path string, keys ...string) error {
	for _, k := range keys {
		if s, ok := m[k].(string); !ok || strings.TrimSpace(s) == "" {
			return invalid("field %s.%s is required and must be a string", path, k)
		}
	}
	return nil
}

var statusTypes = []string{"default", "ongoing", terminalStatus}

// checkStatus validates a Status (§7.1); on annotation add the colours and
// an icon are required too.
func checkStatus(m map[string]any, path string, onAdd bool) error {
	if m == nil {
		return nil
	}
	if err := requireStrings(m, path, "id", "name", "type"); err != nil {
		return err
	}
	if t := m["type"].(string); !slices.Contains(statusTypes, t) {
		return invalid("field %s.type has unknown value %q; allowed: %s", path, t, strings.Join(statusTypes, ", "))
	}
	if !onAdd {
		return nil
	}
	if err := requireStrings(m, path, "color", "lightColor"); err != nil {
		return err
	}
	if requireStrings(m, path, "svg") != nil && requireStrings(m, path, "iconUrl") != nil {
		return invalid("field %s needs svg or iconUrl", path)
	}
	return nil
}

// checkPriority validates a Priority (§7.1).
func checkPriority(m map[string]any, path string, onAdd bool) error {
	if m == nil {
		return nil
	}
	keys := []string{"id", "name"}
	if onAdd {
		keys = append(keys, "color", "lightColor")
	}
	return requireStrings(m, path, keys...)
}

// checkLocation validates a Location: {id (Y), locationName, ...}.
func checkLocation(m map[string]any, path string) error {
	if m == nil {
		return nil
	}
	return requireStrings(m, path, "id")
}

// checkTaggedContacts validates taggedUserContacts: each names a userId and
// a contact object with that user's userId.
func checkTaggedContacts(list []map[string]any, path string) error {
	for i, tc := range list {
		p := fmt.Sprintf("%s[%d]", path, i)
		if err := requireStrings(tc, p, "userId"); err != nil {
			return err
		}
		contact, ok := tc["contact"].(map[string]any)
		if !ok {
			return invalid("field %s.contact is required and must be an object", p)
		}
		if err := requireStrings(contact, p+".contact", "userId"); err != nil {
			return err
		}
	}
	return nil
}

// checkAttachments validates attachments: attachmentId is a number.
func checkAttachments(list []map[string]any, path string) error {
	for i, a := range list {
		if _, ok := a["attachmentId"].(float64); !ok {
			return invalid("field %s[%d].attachmentId is required and must be a number", path, i)
		}
	}
	return nil
}

// checkTimes refuses negative timestamps.
func checkTimes(path string, times map[string]*int64) error {
	for name, t := range times {
		if t != nil && *t < 0 {
			return invalid("field %s%s must not be negative", path, name)
		}
	}
	return nil
}
