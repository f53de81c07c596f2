package e2e

import (
	"net/http"
	"strings"
	"testing"
)

// TestWorkspaceConfigThroughGateway: the workspace configuration operations
// are reached with workspace credentials (not the operator token), honour
// the operator's advancedWebhooks switch, and keep workspaces apart.
func TestWorkspaceConfigThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	bad := map[string]string{"x-svc-api-key": s.ws.apiKey, "x-svc-auth-token": "at_wrong"}
	r := s.raw(http.MethodPost, "/v2/workspace/emailconfig/get", []byte(`{"data":{}}`), bad)
	expectStatus(t, r, "PERMISSION_DENIED", 403)
	r = s.operator("/v2/workspace/emailconfig/get", map[string]any{})
	expectStatus(t, r, "PERMISSION_DENIED", 403)

	r = s.call("/v2/workspace/emailconfig/get", map[string]any{})
	expectOK(t, r)
	if cfg, _ := r.DataMap()["emailServiceConfig"].(map[string]any); cfg["type"] != "default" || r.DataMap()["useEmailService"] != false {
		t.Fatalf("email defaults: %s", r.Raw)
	}
	r = s.call("/v2/workspace/advancedwebhookconfig/get", map[string]any{})
	expectOK(t, r)
	if r.DataMap()["isEnabled"] != false {
		t.Fatalf("webhook defaults: %s", r.Raw)
	}
	expectStatus(t, s.call("/v2/workspace/advancedwebhook/endpoints/create", map[string]any{"url": "https://hooks.example.com/in"}), "FAILED_PRECONDITION", 400)

	expectOK(t, s.call("/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true}))
	r = s.call("/v2/workspace/advancedwebhook/endpoints/create", map[string]any{"url": "https://hooks.example.com/in"})
	expectOK(t, r)
	epID, _ := r.DataMap()["id"].(string)
	r = s.call("/v2/workspace/advancedwebhook/endpoints/secret/get", map[string]any{"endpointId": epID})
	expectOK(t, r)
	if secret, _ := r.DataMap()["secret"].(string); !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret/get: %s", r.Raw)
	}

	other := s.newWorkspace()
	expectOK(t, s.callAs(other, "/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true}))
	expectStatus(t, s.callAs(other, "/v2/workspace/advancedwebhook/endpoints/secret/get", map[string]any{"endpointId": epID}), "NOT_FOUND", 404)

	// The operator's switch takes advanced webhooks away.
	expectOK(t, s.operator("/v2/workspace/features/update", map[string]any{"apiKey": s.ws.apiKey, "features": map[string]any{"advancedWebhooks": false}}))
	expectStatus(t, s.call("/v2/workspace/advancedwebhookconfig/get", map[string]any{}), "FAILED_PRECONDITION", 400)
	expectStatus(t, s.call("/v2/workspace/advancedwebhook/endpoints/secret/get", map[string]any{"endpointId": epID}), "FAILED_PRECONDITION", 400)
	expectOK(t, s.callAs(other, "/v2/workspace/advancedwebhook/endpoints/get", map[string]any{}))
}
