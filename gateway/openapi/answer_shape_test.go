package openapi

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// answerSchemas visits every schema node a success answer reaches.
func answerSchemas(t *testing.T, visit func(path string, node map[string]any)) {
	t.Helper()
	documentSchemas(t, func(op map[string]any) any {
		responses, _ := op["responses"].(map[string]any)
		ok, _ := responses["200"].(map[string]any)
		content, _ := ok["content"].(map[string]any)
		media, _ := content["application/json"].(map[string]any)
		return media["schema"]
	}, visit)
}

// openAnswers are the answer objects that carry keys beyond their listed
// fields, and why. Any other object with fields is closed, so validating
// e2e traffic against the document catches an undocumented key.
var openAnswers = map[string]string{
	"#Organization": "its metadata keys are merged into it",
	"#Document":     "its metadata keys are merged into it",
	"#Annotation":   "a comment annotation keeps the fields the customer stored with it",
}

// freeAnswers are the answer objects described without fields, and why.
var freeAnswers = map[string]string{
	"/openapi.json":                                     "the OpenAPI document itself",
	"/v2/agents/get.result.data.agent":                  "an agent's configuration is free-form",
	"/v2/agents/get.result.data.agents[]":               "an agent's configuration is free-form",
	"/v2/agents/versions/list.result.data.versions[]":   "an agent version's configuration is free-form",
	"/v2/commentannotations/comments/get.result.data[]": "comments keep the fields the customer stored with them",
	"#Annotation.comments[]":                            "comments keep the fields the customer stored with them",
	"#Judgment.actionUser":                              "the reviewer as the customer described them (interface: carries name)",
	"#Judgment.agent":                                   "the deciding agent's record, free-form",
	"#Suggestion.evidence[]":                            "judgments behind the suggestion, free-form",
	"/v2/users/data/get.result.data.comments[]":         "items not shown by the interface",
	"/v2/users/data/get.result.data.notifications[]":    "items not shown by the interface",
	"/v2/users/data/get.result.data.reactions[]":        "items not shown by the interface",
	"/v2/users/data/get.result.data.recordings[]":       "items not shown by the interface",
}

// Every answer object with fields is closed unless it is one of
// openAnswers, and an object described without fields is one of
// freeAnswers: a new loose answer schema fails here until its fields are
// written down (or it is listed with a reason).
func TestAnswerObjectsAreClosedUnlessDeclaredOpen(t *testing.T) {
	var problems []string
	answerSchemas(t, func(path string, node map[string]any) {
		_, hasProps := node["properties"]
		extra, said := node["additionalProperties"]
		switch {
		case hasProps && !said:
			problems = append(problems, path+": fields listed but additionalProperties unsaid")
		case extra == true && openAnswers[path] == "":
			problems = append(problems, path+": open (additionalProperties: true) without a reason in openAnswers")
		case !hasProps && !said && isObject(node) && freeAnswers[path] == "":
			problems = append(problems, path+": an object without fields; describe them or list it in freeAnswers")
		}
	})
	sort.Strings(problems)
	if len(problems) > 0 {
		t.Fatalf("loose answer schemas:\n%s", strings.Join(problems, "\n"))
	}
}

func isObject(node map[string]any) bool {
	if node["oneOf"] != nil || node["anyOf"] != nil || node["allOf"] != nil {
		return false
	}
	switch t := node["type"].(type) {
	case string:
		return t == "object"
	case []any:
		return slices.Contains(t, any("object"))
	}
	return false
}
