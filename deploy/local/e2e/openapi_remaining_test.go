package e2e

import "testing"

// TestOpenAPIOperationsOtherTestsSkip sends the operations no other e2e
// test uses, so every documented POST operation's traffic is checked
// against the OpenAPI document (stack.raw checks each exchange).
func TestOpenAPIOperationsOtherTestsSkip(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	r := s.operator("/v2/workspace/features/get", map[string]any{"apiKey": s.ws.apiKey})
	expectOK(t, r)
	if r.DataMap()["apiKey"] != s.ws.apiKey {
		t.Fatalf("features/get: %s", r.Raw)
	}
	expectOK(t, s.call("/v2/workspace/emailconfig/update", map[string]any{
		"useEmailService": true, "emailServiceConfig": map[string]any{"fromEmail": "noreply@example.com"}}))

	expectOK(t, s.call("/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true}))
	r = s.call("/v2/workspace/advancedwebhook/endpoints/create", map[string]any{"url": "https://hooks.example.com/in"})
	expectOK(t, r)
	id, _ := r.DataMap()["id"].(string)
	ep := map[string]any{"endpointId": id}
	expectOK(t, s.call("/v2/workspace/advancedwebhook/endpoints/update", map[string]any{"endpointId": id, "disabled": true}))
	expectOK(t, s.call("/v2/workspace/advancedwebhook/endpoints/secret/rotate", ep))
	expectOK(t, s.call("/v2/workspace/advancedwebhook/endpoints/attempts/get", map[string]any{"endpointId": id, "limit": 10}))
	expectOK(t, s.call("/v2/workspace/advancedwebhook/endpoints/delete", ep))
	expectStatus(t, s.call("/v2/workspace/advancedwebhook/endpoints/secret/get", ep), "NOT_FOUND", 404)

	r = s.call("/v2/memory/index/status", map[string]any{})
	if r.Code != 200 {
		t.Fatalf("memory/index/status: %d %s", r.Code, r.Raw)
	}
}
