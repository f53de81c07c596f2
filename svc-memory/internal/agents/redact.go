package agents

import "encoding/json"

// redacted replaces secrets in everything read back (§12: secrets are
// always "__redacted__").
const redacted = "__redacted__"

// redact returns the configuration with the secrets of every auth object
// (rest-api endpoints, MCP servers) replaced: bearer token, basic
// password, and the values of header auth. Secrets are stored as sent;
// encrypting them at rest is not done yet.
func redact(config json.RawMessage) json.RawMessage {
	var v any
	if err := json.Unmarshal(config, &v); err != nil {
		return config
	}
	out, err := json.Marshal(redactValue(v))
	if err != nil {
		return config
	}
	return out
}

func redactValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			if auth, isObj := child.(map[string]any); isObj && k == "auth" {
				redactAuth(auth)
				continue
			}
			t[k] = redactValue(child)
		}
	case []any:
		for i, child := range t {
			t[i] = redactValue(child)
		}
	}
	return v
}

func redactAuth(auth map[string]any) {
	for _, k := range []string{"token", "password"} {
		if _, set := auth[k]; set {
			auth[k] = redacted
		}
	}
	if headers, isObj := auth["headers"].(map[string]any); isObj {
		for k := range headers {
			headers[k] = redacted
		}
	}
}
