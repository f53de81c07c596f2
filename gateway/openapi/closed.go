package openapi

import "strings"

// closeRequests makes every POST request's `data` schema say what pkg/api's
// strict decoding does: unknown fields of fixed-shape objects are refused.
// An allOf of a component (operations that share a scope) is first merged
// into the schema that uses it, since a closed allOf member would refuse
// the keys of the others.
func closeRequests(paths, schemas map[string]any) {
	for _, item := range paths {
		post, _ := item.(map[string]any)["post"].(map[string]any)
		body, _ := post["requestBody"].(map[string]any)
		if body == nil {
			continue
		}
		content := body["content"].(map[string]any)["application/json"].(map[string]any)
		envelope := content["schema"].(map[string]any)
		data := envelope["properties"].(map[string]any)["data"]
		if m, ok := data.(map[string]any); ok {
			mergeAllOf(m, schemas)
		}
		closeObjects(data)
	}
}

// mergeAllOf moves the properties and required names of allOf members that
// are component references into m.
func mergeAllOf(m map[string]any, schemas map[string]any) {
	list, _ := m["allOf"].([]any)
	var rest []any
	for _, member := range list {
		ref, _ := member.(map[string]any)["$ref"].(string)
		comp, _ := schemas[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		if ref == "" || comp == nil {
			rest = append(rest, member)
			continue
		}
		props, _ := m["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			m["properties"] = props
		}
		compProps, _ := comp["properties"].(map[string]any)
		for k, v := range compProps {
			if _, own := props[k]; !own {
				props[k] = v
			}
		}
		req, _ := m["required"].([]any)
		compReq, _ := comp["required"].([]any)
		m["required"] = append(compReq[:len(compReq):len(compReq)], req...)
		if m["type"] == nil {
			m["type"] = comp["type"]
		}
		if _, set := m["additionalProperties"]; !set && comp["additionalProperties"] != nil {
			m["additionalProperties"] = comp["additionalProperties"]
		}
	}
	if len(rest) == 0 {
		delete(m, "allOf")
	} else {
		m["allOf"] = rest
	}
}

// closeObjects sets additionalProperties: false on every object schema that
// lists properties and does not say otherwise. An object that keeps free
// keys (a user's profile extras, an organization's metadata) says
// additionalProperties: true in its fragment. Schemas behind $ref are the
// fragment's to mark (a test checks that every one a request reaches says
// which it is); allOf members stay as written.
func closeObjects(schema any) {
	m, ok := schema.(map[string]any)
	if !ok || m["$ref"] != nil {
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if _, set := m["additionalProperties"]; !set {
			m["additionalProperties"] = false
		}
		for _, p := range props {
			closeObjects(p)
		}
	}
	closeObjects(m["items"])
	closeObjects(m["additionalProperties"])
	for _, key := range []string{"oneOf", "anyOf"} {
		list, _ := m[key].([]any)
		for _, s := range list {
			closeObjects(s)
		}
	}
}

// closeResponses does for every success answer what closeRequests does for
// requests, so validating real traffic catches a key the document does not
// describe: every object that lists properties and does not say otherwise
// is closed, in the operation and in every component its answer reaches.
// An answer object that carries free keys (a document's metadata merged
// into it, a customer's profile keys) says additionalProperties: true in
// its fragment. allOf members stay as written.
func closeResponses(paths, schemas map[string]any) {
	seen := map[string]bool{}
	for _, item := range paths {
		for _, op := range item.(map[string]any) {
			responses, _ := op.(map[string]any)["responses"].(map[string]any)
			ok, _ := responses["200"].(map[string]any)
			content, _ := ok["content"].(map[string]any)
			media, _ := content["application/json"].(map[string]any)
			closeAnswer(media["schema"], schemas, seen)
		}
	}
}

func closeAnswer(schema any, schemas map[string]any, seen map[string]bool) {
	m, ok := schema.(map[string]any)
	if !ok {
		return
	}
	if ref, ok := m["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		if !seen[name] {
			seen[name] = true
			closeAnswer(schemas[name], schemas, seen)
		}
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if _, set := m["additionalProperties"]; !set {
			m["additionalProperties"] = false
		}
		for _, p := range props {
			closeAnswer(p, schemas, seen)
		}
	}
	closeAnswer(m["items"], schemas, seen)
	closeAnswer(m["additionalProperties"], schemas, seen)
	for _, key := range []string{"oneOf", "anyOf"} {
		list, _ := m[key].([]any)
		for _, s := range list {
			closeAnswer(s, schemas, seen)
		}
	}
}
