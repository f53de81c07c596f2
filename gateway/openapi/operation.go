package openapi

import (
	"fmt"
	"sort"
	"strings"
)

// opSpec is the compact form of one operation in a spec/*.yaml fragment.
type opSpec struct {
	// Method is "post" (default) or "get".
	Method      string `yaml:"method"`
	Tag         string `yaml:"tag"`
	Summary     string `yaml:"summary"`
	Description string `yaml:"description"`
	// Auth is "workspace" (default), "operator", "realtime" or "none".
	Auth string `yaml:"auth"`
	// Feature is the workspace feature switch the operation needs; off,
	// the operation answers FAILED_PRECONDITION.
	Feature string `yaml:"feature"`
	// Errors are the statuses the operation itself can answer beyond
	// those every operation of its kind can give (commonErrors).
	Errors []string `yaml:"errors"`
	// Request is the schema of the body's `data` object.
	Request any `yaml:"request"`
	// Result is "data" (default: result.status, message and data),
	// "none" (status and message only) or "bare" (only Extra's keys).
	Result string `yaml:"result"`
	// Data is the schema of result.data.
	Data any `yaml:"data"`
	// Extra are further keys of result, next to data (nextPageToken).
	Extra   map[string]any `yaml:"extra"`
	Example struct {
		Request  any `yaml:"request"`
		Response any `yaml:"response"`
	} `yaml:"example"`
	// Raw is a complete OpenAPI operation for what is not an envelope
	// operation (WebSocket upgrades, probes, the documents themselves).
	Raw map[string]any `yaml:"raw"`
}

// statusHTTP is pkg/api's status → HTTP table (its test pins the same).
var statusHTTP = map[string]string{
	"INVALID_ARGUMENT":    "400",
	"FAILED_PRECONDITION": "400",
	"PERMISSION_DENIED":   "403",
	"NOT_FOUND":           "404",
	"ALREADY_EXISTS":      "409",
	"RESOURCE_EXHAUSTED":  "429",
	"INTERNAL":            "500",
	"UNAVAILABLE":         "503",
}

// commonErrors are what any operation of an auth kind can answer: a
// malformed or oversized body, wrong credentials, the per-API-key rate
// limit (workspace credentials only), a failure, a service down.
var commonErrors = map[string][]string{
	"workspace": {"INVALID_ARGUMENT", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "INTERNAL", "UNAVAILABLE"},
	"operator":  {"INVALID_ARGUMENT", "PERMISSION_DENIED", "INTERNAL", "UNAVAILABLE"},
}

// statusMeaning explains each status in the responses' descriptions.
var statusMeaning = map[string]string{
	"INVALID_ARGUMENT":    "the body is not JSON, is larger than the body limit, or a field is missing or invalid (the message names it)",
	"FAILED_PRECONDITION": "a workspace feature this operation needs is switched off, or the state does not allow it",
	"PERMISSION_DENIED":   "missing or wrong credentials",
	"NOT_FOUND":           "a named resource does not exist",
	"ALREADY_EXISTS":      "the resource exists already",
	"RESOURCE_EXHAUSTED":  "the API key's rate limit is exceeded; retry later",
	"INTERNAL":            "an unexpected failure",
	"UNAVAILABLE":         "a service or store is not reachable; retry",
}

func (o opSpec) auth() string {
	if o.Auth == "" {
		return "workspace"
	}
	return o.Auth
}

func (o opSpec) method() string {
	if o.Method == "" {
		return "post"
	}
	return o.Method
}

// build returns the OpenAPI operation object of path. The error responses
// it uses are added to responses (components.responses), one per set of
// statuses of an HTTP code, and referenced.
func (o opSpec) build(path string, responses map[string]any) (string, map[string]any, error) {
	if o.Tag == "" || o.Summary == "" {
		return "", nil, fmt.Errorf("tag and summary are required")
	}
	op := map[string]any{}
	if o.Raw != nil {
		for k, v := range o.Raw {
			op[k] = v
		}
	} else {
		if o.method() != "post" {
			return "", nil, fmt.Errorf("envelope operations are POST; use raw for others")
		}
		if o.Example.Request == nil {
			return "", nil, fmt.Errorf("example.request is required")
		}
		out, err := o.responses(responses)
		if err != nil {
			return "", nil, err
		}
		op["requestBody"] = o.requestBody()
		op["responses"] = out
	}
	op["operationId"] = operationID(o.method(), path)
	op["tags"] = []any{o.Tag}
	op["summary"] = o.Summary
	op["description"] = o.description()
	op["security"] = security(o.auth())
	if o.Feature != "" {
		op["x-feature"] = o.Feature
	}
	return o.method(), op, nil
}

func (o opSpec) description() string {
	d := strings.TrimSpace(o.Description)
	if o.Feature != "" {
		d += fmt.Sprintf("\n\nNeeds the workspace feature `%s` (on by default); when it is off the operation answers FAILED_PRECONDITION.", o.Feature)
	}
	return strings.TrimSpace(d)
}

func (o opSpec) requestBody() map[string]any {
	data := o.Request
	if data == nil {
		data = map[string]any{"type": "object"}
	}
	return map[string]any{
		"required": true,
		"content": map[string]any{"application/json": map[string]any{
			"schema": map[string]any{
				"type":                 "object",
				"required":             []any{"data"},
				"properties":           map[string]any{"data": data},
				"additionalProperties": false,
			},
			"example": map[string]any{"data": o.Example.Request},
		}},
	}
}

func (o opSpec) responses(responses map[string]any) (map[string]any, error) {
	ok, err := o.successSchema()
	if err != nil {
		return nil, err
	}
	success := map[string]any{"schema": ok}
	if o.Example.Response != nil {
		success["example"] = o.Example.Response
	}
	out := map[string]any{"200": map[string]any{
		"description": "Success envelope.",
		"content":     map[string]any{"application/json": success},
	}}
	statuses := append([]string(nil), commonErrors[o.auth()]...)
	if o.Feature != "" {
		statuses = append(statuses, "FAILED_PRECONDITION")
	}
	statuses = append(statuses, o.Errors...)
	byCode := map[string][]string{}
	for _, s := range statuses {
		code, ok := statusHTTP[s]
		if !ok {
			return nil, fmt.Errorf("unknown error status %q", s)
		}
		if !contains(byCode[code], s) {
			byCode[code] = append(byCode[code], s)
		}
	}
	for code, list := range byCode {
		sort.Strings(list)
		name := "Error_" + strings.Join(list, "_")
		responses[name] = errorResponse(list)
		out[code] = map[string]any{"$ref": "#/components/responses/" + name}
	}
	return out, nil
}

func (o opSpec) successSchema() (map[string]any, error) {
	props := map[string]any{}
	required := []any{}
	switch o.Result {
	case "", "data":
		props["status"] = map[string]any{"const": "success"}
		props["message"] = map[string]any{"type": "string"}
		data := o.Data
		if data == nil {
			return nil, fmt.Errorf("data schema is required (or result: none)")
		}
		props["data"] = data
		required = append(required, "status", "message", "data")
	case "none":
		props["status"] = map[string]any{"const": "success"}
		props["message"] = map[string]any{"type": "string"}
		required = append(required, "status", "message")
	case "bare":
		if len(o.Extra) == 0 {
			return nil, fmt.Errorf("a bare result needs extra keys")
		}
	default:
		return nil, fmt.Errorf("unknown result kind %q", o.Result)
	}
	keys := make([]string, 0, len(o.Extra))
	for k := range o.Extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		props[k] = o.Extra[k]
		if o.Result == "bare" {
			required = append(required, k)
		}
	}
	result := map[string]any{"type": "object", "required": required, "properties": props, "additionalProperties": false}
	return map[string]any{
		"type":                 "object",
		"required":             []any{"result"},
		"properties":           map[string]any{"result": result},
		"additionalProperties": false,
	}, nil
}

// errorResponse is the error envelope restricted to statuses (all of one
// HTTP code).
func errorResponse(statuses []string) map[string]any {
	enum := make([]any, len(statuses))
	var lines []string
	for i, s := range statuses {
		enum[i] = s
		lines = append(lines, fmt.Sprintf("`%s`: %s.", s, statusMeaning[s]))
	}
	return map[string]any{
		"description": strings.Join(lines, " "),
		"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{
			"allOf": []any{
				map[string]any{"$ref": "#/components/schemas/ErrorEnvelope"},
				map[string]any{"properties": map[string]any{"error": map[string]any{
					"properties": map[string]any{"status": map[string]any{"enum": enum}},
				}}},
			},
		}}},
	}
}

func security(auth string) []any {
	switch auth {
	case "workspace":
		return []any{
			map[string]any{"apiKey": []any{}, "authToken": []any{}},
			map[string]any{"veltApiKey": []any{}, "veltAuthToken": []any{}},
		}
	case "operator":
		return []any{map[string]any{"operatorToken": []any{}}}
	case "realtime":
		return []any{map[string]any{"userToken": []any{}}, map[string]any{}}
	}
	return []any{}
}

// operationID is the method-less camel case of the path for POST
// operations ("/v2/users/add" → "v2UsersAdd") and "get" + it otherwise.
func operationID(method, path string) string {
	var b strings.Builder
	if method != "post" {
		b.WriteString(method)
	}
	for _, seg := range strings.Split(path, "/") {
		seg = strings.Trim(seg, "{}")
		for _, part := range strings.FieldsFunc(seg, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			if b.Len() == 0 {
				b.WriteString(part)
				continue
			}
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
