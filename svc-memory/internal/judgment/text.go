package judgment

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// reasoningOf is why the reviewer decided: the comment text in the entity
// snapshot, else the last comment's text, else the display message
// rendered with its data, else an agent's stated reason.
func reasoningOf(a Activity, entity map[string]any) string {
	if t := clean(str(entity["commentText"])); t != "" {
		return t
	}
	comments, _ := entity["comments"].([]any)
	for i := len(comments) - 1; i >= 0; i-- {
		c, _ := comments[i].(map[string]any)
		if t := clean(str(c["commentText"])); t != "" {
			return t
		}
	}
	if t := clean(render(a.DisplayMessageTemplate, object(a.DisplayMessageTemplateData))); t != "" {
		return t
	}
	agent, _ := entity["agent"].(map[string]any)
	reason, _ := agent["reason"].(map[string]any)
	return clean(strings.Trim(str(reason["title"])+": "+str(reason["description"]), ": "))
}

// contentFields are the keys of a target snapshot that hold its text.
var contentFields = []string{"text", "content", "targetText", "body", "commentText", "title", "description"}

// contentOf is the text of the reviewed content: the target snapshot (a
// string, or an object's text field or first comment), else the first
// comment of the annotation (the thread's subject).
func contentOf(rawTarget json.RawMessage, target, entity map[string]any) string {
	var s string
	if json.Unmarshal(rawTarget, &s) == nil && clean(s) != "" {
		return clean(s)
	}
	for _, k := range contentFields {
		if t := clean(str(target[k])); t != "" {
			return t
		}
	}
	for _, snapshot := range []map[string]any{target, entity} {
		comments, _ := snapshot["comments"].([]any)
		if len(comments) > 0 {
			c, _ := comments[0].(map[string]any)
			if t := clean(str(c["commentText"])); t != "" {
				return t
			}
		}
	}
	return ""
}

// placeholder matches {{name}} and {{a.b}}, spaces allowed inside.
var placeholder = regexp.MustCompile(`\{\{\s*([^{}\s]+)\s*\}\}`)

// render fills a display message template. A value may be a string, a
// number, or an object (its name, e.g. a User); unknown placeholders
// render empty.
func render(template string, data map[string]any) string {
	if template == "" {
		return ""
	}
	return placeholder.ReplaceAllStringFunc(template, func(m string) string {
		path := placeholder.FindStringSubmatch(m)[1]
		var v any = data
		for _, key := range strings.Split(path, ".") {
			obj, _ := v.(map[string]any)
			v = obj[key]
		}
		if obj, isObj := v.(map[string]any); isObj {
			return firstNonEmpty(str(obj["name"]), str(obj["email"]), str(obj["userId"]))
		}
		return str(v)
	})
}

// clean trims and collapses whitespace.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// object decodes a JSON object (numbers kept as json.Number); anything
// else is an empty map.
func object(raw json.RawMessage) map[string]any {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if len(raw) == 0 || dec.Decode(&m) != nil {
		return map[string]any{}
	}
	return m
}

// str renders a scalar JSON value as text; other values are "".
func str(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	case bool:
		if t {
			return "true"
		}
		return "false"
	}
	return ""
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
