package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/svc-memory/internal/memory"
)

// fields is a JSON object with its values undecoded.
type fields map[string]json.RawMessage

// reader decodes the memory operations field by field, collecting an
// issue for every field of the wrong type instead of stopping at the
// first, so one INVALID_ARGUMENT names every bad field.
type reader struct {
	issues []memory.Issue
	read   map[string]bool // field paths the operation reads
}

// readData decodes the request's data object. Envelope failures (no body,
// malformed JSON, $-keys) are reported as an issue of data.
func readData(req *http.Request) (fields, error) {
	var data fields
	if err := api.Decode(req, &data); err != nil {
		apiErr, _ := api.AsError(err)
		return nil, memory.Invalid([]memory.Issue{{Field: "data", Message: apiErr.Message}})
	}
	return data, nil
}

func (r *reader) add(field, msg string) {
	r.issues = append(r.issues, memory.Issue{Field: field, Message: msg})
}

// value returns the raw value at key, nil when absent or null.
func value(m fields, key string) json.RawMessage {
	v := bytes.TrimSpace(m[key])
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		return nil
	}
	return v
}

func (r *reader) str(m fields, key, field string) string {
	r.mark(field)
	v := value(m, key)
	if v == nil {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		r.add(field, "must be a string")
	}
	return s
}

// integer reads a whole number; absent is nil.
func (r *reader) integer(m fields, key, field string) *int {
	r.mark(field)
	v := value(m, key)
	if v == nil {
		return nil
	}
	var f float64
	if json.Unmarshal(v, &f) != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		r.add(field, "must be an integer")
		return nil
	}
	n := int(f)
	return &n
}

func (r *reader) object(m fields, key, field string) fields {
	r.mark(field)
	v := value(m, key)
	if v == nil {
		return nil
	}
	var obj fields
	if json.Unmarshal(v, &obj) != nil || obj == nil {
		r.add(field, "must be an object")
		return nil
	}
	return obj
}

// strs reads an array of at most max strings.
func (r *reader) strs(m fields, key, field string, max int) []string {
	r.mark(field)
	v := value(m, key)
	if v == nil {
		return nil
	}
	var list []string
	if json.Unmarshal(v, &list) != nil {
		r.add(field, "must be an array of strings")
	}
	return r.bounded(list, field, max)
}

// bounded refuses a list longer than max, naming the limit.
func (r *reader) bounded(list []string, field string, max int) []string {
	if len(list) > max {
		r.add(field, fmt.Sprintf("accepts at most %d items", max))
		return nil
	}
	return list
}

// strOrStrs reads a string or an array of at most max strings.
func (r *reader) strOrStrs(m fields, key, field string, max int) []string {
	r.mark(field)
	v := value(m, key)
	if v == nil {
		return nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	var list []string
	if json.Unmarshal(v, &list) != nil {
		r.add(field, "must be a string or an array of strings")
	}
	return r.bounded(list, field, max)
}

// instant reads a date bound: epoch ms (number or digits) or ISO-8601.
func (r *reader) instant(m fields, key, field string, end bool) *int64 {
	r.mark(field)
	v := value(m, key)
	if v == nil {
		return nil
	}
	var text string
	var num json.Number
	switch {
	case json.Unmarshal(v, &text) == nil:
	case json.Unmarshal(v, &num) == nil:
		text = num.String()
	default:
		r.add(field, "must be an ISO-8601 string or epoch milliseconds")
		return nil
	}
	ms, err := memory.ParseInstant(text, end)
	if err != nil {
		r.add(field, err.Error())
		return nil
	}
	return &ms
}

// filters reads the filters object of search and ask.
func (r *reader) filters(data fields) memory.Filters {
	f := r.object(data, "filters", "filters")
	out := memory.Filters{
		Decisions:          r.strOrStrs(f, "decision", "filters.decision", maxDecisions),
		JudgeType:          r.str(f, "judgeType", "filters.judgeType"),
		ContentType:        r.str(f, "contentType", "filters.contentType"),
		ReviewerID:         r.str(f, "reviewerId", "filters.reviewerId"),
		AnnotationID:       r.str(f, "annotationId", "filters.annotationId"),
		ExcludeDocumentIDs: r.strs(f, "excludeDocumentIds", "filters.excludeDocumentIds", maxExcludedDocuments),
	}
	// Also accepted next to filters, where the issue text puts it.
	out.ExcludeDocumentIDs = append(out.ExcludeDocumentIDs, r.strs(data, "excludeDocumentIds", "excludeDocumentIds", maxExcludedDocuments)...)
	if dr := r.object(f, "dateRange", "filters.dateRange"); dr != nil {
		out.DateRange = &memory.DateRange{
			Start: r.instant(dr, "start", "filters.dateRange.start", false),
			End:   r.instant(dr, "end", "filters.dateRange.end", true),
		}
	}
	return out
}

func (r *reader) mark(field string) {
	if r.read == nil {
		r.read = map[string]bool{}
	}
	r.read[field] = true
}

// checked is the issues plus one for every key of data (and of the objects
// it reads inside) that the operation never read: strict decoding, as
// api.Decode does for typed bodies.
func (r *reader) checked(data fields) []memory.Issue {
	r.unread(data, "")
	return r.issues
}

func (r *reader) unread(m fields, prefix string) {
	var known []string
	for path := range r.read {
		if rest, ok := strings.CutPrefix(path, prefix); ok && !strings.Contains(rest, ".") {
			known = append(known, rest)
		}
	}
	for key, v := range m {
		path := prefix + key
		if !r.read[path] {
			r.add(path, api.UnknownFieldMessage(path, key, known))
			continue
		}
		var inner fields
		if json.Unmarshal(v, &inner) == nil && inner != nil && r.readsInside(path+".") {
			r.unread(inner, path+".")
		}
	}
}

func (r *reader) readsInside(prefix string) bool {
	for path := range r.read {
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}
