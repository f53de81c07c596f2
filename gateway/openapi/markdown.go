package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Markdown renders the document as the API reference of docs/ (the file
// cmd/apidocs writes and a test keeps current).
func Markdown() []byte {
	var doc map[string]any
	if err := json.Unmarshal(Document(), &doc); err != nil {
		panic(err)
	}
	m := mdDoc{doc: doc, schemas: dig(doc, "components", "schemas")}
	return m.render()
}

type mdDoc struct {
	doc, schemas map[string]any
	b            bytes.Buffer
}

func (m *mdDoc) p(format string, args ...any) { fmt.Fprintf(&m.b, format, args...) }

func (m *mdDoc) render() []byte {
	info := dig(m.doc, "info")
	m.p("# API reference\n\n<!-- Generated from the OpenAPI document by `go run ./gateway/cmd/apidocs`; do not edit. -->\n\n")
	m.p("%s %s. The same document is served at `GET /openapi.json` and browsable at `GET /docs`.\n\n", info["title"], info["version"])
	m.p("%s\n\n", strings.TrimSpace(str(info["description"])))
	m.p("Authentication: workspace operations need `x-svc-api-key` and `x-svc-auth-token` (or the aliases `x-velt-api-key`, `x-velt-auth-token`); operator operations `x-svc-operator-token`; the y-websocket endpoint a user token in `?token=`. See [auth.md](auth.md).\n\n")
	byTag := map[string][][2]string{}
	paths := dig(m.doc, "paths")
	for _, path := range sortedKeys(paths) {
		for _, method := range sortedKeys(paths[path].(map[string]any)) {
			tag := str(dig(paths, path, method)["tags"].([]any)[0])
			byTag[tag] = append(byTag[tag], [2]string{path, method})
		}
	}
	tags, _ := m.doc["tags"].([]any)
	m.p("## Contents\n\n")
	for _, t := range tags {
		name := str(t.(map[string]any)["name"])
		m.p("- [%s](#%s)\n", name, anchor(name))
		for _, pm := range byTag[name] {
			m.p("  - [`%s`](#%s)\n", pm[0], anchor(strings.ToUpper(pm[1])+" "+pm[0]))
		}
	}
	m.p("\n")
	m.p("- [Schemas](#schemas)\n\n")
	for _, t := range tags {
		tm := t.(map[string]any)
		m.p("## %s\n\n%s\n\n", tm["name"], tm["description"])
		for _, pm := range byTag[str(tm["name"])] {
			m.operation(pm[0], pm[1], dig(paths, pm[0], pm[1]))
		}
	}
	m.p("## Schemas\n\nShapes shared by several operations.\n\n")
	for _, name := range sortedKeys(m.schemas) {
		s := m.schemas[name].(map[string]any)
		m.p("### %s\n\n", name)
		if d := str(s["description"]); d != "" {
			m.p("%s\n\n", d)
		}
		m.fields(s)
	}
	return m.b.Bytes()
}

func (m *mdDoc) operation(path, method string, op map[string]any) {
	m.p("### %s %s\n\n**%s**", strings.ToUpper(method), path, op["summary"])
	m.p(" — %s", m.authLine(op))
	if f := str(op["x-feature"]); f != "" {
		m.p(" · feature `%s`", f)
	}
	m.p("\n\n")
	if d := strings.TrimSpace(str(op["description"])); d != "" {
		m.p("%s\n\n", d)
	}
	for i, p := range asList(op["parameters"]) {
		if i == 0 {
			m.p("Parameters:\n\n")
		}
		pm := p.(map[string]any)
		m.p("- `%s` (%s): %s\n", pm["name"], pm["in"], pm["description"])
	}
	if body := dig(op, "requestBody", "content", "application/json"); body != nil {
		m.p("Request `data`:\n\n")
		m.fields(dig(body, "schema", "properties", "data"))
		m.example(body["example"])
	}
	if ok := dig(op, "responses", "200", "content", "application/json"); ok != nil {
		if result := dig(ok, "schema", "properties", "result"); result != nil {
			if data, has := dig(result, "properties")["data"]; has {
				m.p("Answer `result.data`:\n\n")
				m.fields(data.(map[string]any))
			} else {
				m.p("Answer `result`:\n\n")
				m.fields(result)
			}
			m.example(ok["example"])
		}
	}
	responses := dig(op, "responses")
	m.p("| HTTP | answer |\n|---|---|\n")
	for _, code := range sortedKeys(responses) {
		r := dig(responses, code)
		if ref := str(r["$ref"]); ref != "" {
			r = dig(m.doc, "components", "responses", refName(ref))
		}
		m.p("| %s | %s |\n", code, cell(str(r["description"])))
	}
	m.p("\n")
}

func (m *mdDoc) example(ex any) {
	if ex == nil {
		return
	}
	b, _ := json.MarshalIndent(ex, "", "  ")
	m.p("```json\n%s\n```\n\n", b)
}

// fields writes a schema's properties as a table (inline objects one level
// deep), or its type when it has none.
func (m *mdDoc) fields(schema map[string]any) {
	var rows []string
	m.rows(schema, "", 0, &rows)
	if len(rows) == 0 {
		m.p("Type: %s\n\n", m.typeOf(schema))
		return
	}
	m.p("| field | type | notes |\n|---|---|---|\n%s\n", strings.Join(rows, ""))
}

func (m *mdDoc) rows(schema map[string]any, prefix string, depth int, out *[]string) {
	s := m.resolve(schema, 0)
	required := map[string]bool{}
	for _, r := range asList(s["required"]) {
		required[str(r)] = true
	}
	props, _ := s["properties"].(map[string]any)
	for _, name := range sortedKeys(props) {
		p := props[name].(map[string]any)
		r := m.resolve(p, 0)
		notes := strings.TrimSpace(str(p["description"]) + " " + limits(r))
		if notes == "" {
			notes = str(r["description"])
		}
		req := ""
		if required[name] {
			req = " (required)"
		}
		*out = append(*out, fmt.Sprintf("| `%s%s`%s | %s | %s |\n", prefix, name, req, cell(m.typeOf(p)), cell(notes)))
		if _, isRef := p["$ref"]; depth < 2 && !isRef && r["properties"] != nil {
			m.rows(r, prefix+name+".", depth+1, out)
		}
	}
}

// resolve follows $ref and merges allOf.
func (m *mdDoc) resolve(s map[string]any, depth int) map[string]any {
	if s == nil || depth > 8 {
		return map[string]any{}
	}
	if ref := str(s["$ref"]); ref != "" {
		base := m.resolve(m.schemas[refName(ref)].(map[string]any), depth+1)
		rest := without(s, "$ref")
		if len(rest) == 0 {
			return base
		}
		return merge(base, m.resolve(rest, depth+1))
	}
	if all, ok := s["allOf"].([]any); ok {
		out := without(s, "allOf")
		for _, part := range all {
			out = merge(m.resolve(part.(map[string]any), depth+1), out)
		}
		return out
	}
	return s
}

func (m *mdDoc) typeOf(s map[string]any) string {
	if s == nil {
		return "any"
	}
	if ref := str(s["$ref"]); ref != "" {
		return "[" + refName(ref) + "](#" + anchor(refName(ref)) + ")"
	}
	if one, ok := s["oneOf"].([]any); ok {
		var parts []string
		for _, o := range one {
			parts = append(parts, m.typeOf(o.(map[string]any)))
		}
		return strings.Join(parts, " | ")
	}
	if _, ok := s["allOf"]; ok {
		return m.typeOf(m.resolve(s, 0))
	}
	if c, ok := s["const"]; ok {
		b, _ := json.Marshal(c)
		return string(b)
	}
	t := str(s["type"])
	if list, ok := s["type"].([]any); ok {
		var parts []string
		for _, x := range list {
			parts = append(parts, str(x))
		}
		t = strings.Join(parts, " | ")
	}
	switch {
	case t == "array":
		items, _ := s["items"].(map[string]any)
		return m.typeOf(items) + "[]"
	case t == "object" && s["additionalProperties"] != nil:
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			return "map of " + m.typeOf(ap)
		}
	case s["enum"] != nil:
		var parts []string
		for _, v := range asList(s["enum"]) {
			b, _ := json.Marshal(v)
			parts = append(parts, string(b))
		}
		return strings.Join(parts, " | ")
	case t == "":
		return "any"
	}
	return t
}

// authLine names the headers (or query parameter) an operation takes.
func (m *mdDoc) authLine(op map[string]any) string {
	schemes := dig(m.doc, "components", "securitySchemes")
	var alts []string
	for _, req := range asList(op["security"]) {
		var names []string
		for _, k := range sortedKeys(req.(map[string]any)) {
			s := dig(schemes, k)
			if str(s["in"]) == "query" {
				names = append(names, "`?"+str(s["name"])+"=`")
			} else {
				names = append(names, "`"+str(s["name"])+"`")
			}
		}
		if len(names) > 0 {
			alts = append(alts, strings.Join(names, " + "))
		}
	}
	if len(alts) == 0 {
		return "no credentials"
	}
	return "auth: " + strings.Join(alts, " or ")
}
