package system

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// The laptop path: embedded stores under DataDir, credentials generated on
// first start, the same credentials and data after a restart.
func TestEmbeddedSystemSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	opts := Options{DataDir: dir, GatewayAddr: "127.0.0.1:0", Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}

	first := startFor(t, opts)
	creds := first.sys.Credentials
	if creds.APIKey == "" || creds.AuthToken == "" || creds.OperatorToken == "" {
		t.Fatalf("credentials not generated: %+v", creds)
	}
	if creds.DataKey == "" {
		t.Fatal("data encryption key not generated")
	}
	code, body := first.post(t, "/v2/organizations/add", `{"data":{"organizations":[{"organizationId":"org-1","organizationName":"Acme"}]}}`)
	if code != 200 {
		t.Fatalf("add organization: %d %s", code, body)
	}
	// A webhook secret is sealed with the persisted data key.
	if code, body = first.post(t, "/v2/workspace/advancedwebhookconfig/update", `{"data":{"isEnabled":true}}`); code != 200 {
		t.Fatalf("enable webhooks: %d %s", code, body)
	}
	code, body = first.post(t, "/v2/workspace/advancedwebhook/endpoints/create", `{"data":{"url":"https://hooks.example.com/in"}}`)
	var ep struct {
		Result struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &ep); err != nil || code != 200 || ep.Result.Data.ID == "" {
		t.Fatalf("create endpoint: %d %s", code, body)
	}
	secretReq := `{"data":{"endpointId":"` + ep.Result.Data.ID + `"}}`
	code, secretBefore := first.post(t, "/v2/workspace/advancedwebhook/endpoints/secret/get", secretReq)
	if code != 200 {
		t.Fatalf("secret/get: %d %s", code, secretBefore)
	}
	first.stop(t)

	second := startFor(t, opts)
	defer second.stop(t)
	if second.sys.Credentials != creds {
		t.Fatalf("credentials changed across restart: %+v vs %+v", second.sys.Credentials, creds)
	}
	code, body = second.post(t, "/v2/organizations/get", `{"data":{"organizationIds":["org-1"]}}`)
	var got struct {
		Result struct {
			Data []struct {
				ID               string `json:"id"`
				OrganizationName string `json:"organizationName"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &got); err != nil || code != 200 {
		t.Fatalf("get organization after restart: %d %s", code, body)
	}
	if len(got.Result.Data) != 1 || got.Result.Data[0].OrganizationName != "Acme" {
		t.Fatalf("organization lost across restart: %s", body)
	}
	if code, body = second.post(t, "/v2/workspace/advancedwebhook/endpoints/secret/get", secretReq); code != 200 || !bytes.Equal(body, secretBefore) {
		t.Fatalf("webhook secret after restart: %d %s, want %s", code, body, secretBefore)
	}
}

type running struct {
	sys    *System
	cancel context.CancelFunc
}

func startFor(t *testing.T, o Options) *running {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sys, err := Start(ctx, o)
	if err != nil {
		cancel()
		t.Fatalf("start: %v", err)
	}
	return &running{sys: sys, cancel: cancel}
}

func (r *running) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	if err := r.sys.Wait(); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}

func (r *running) post(t *testing.T, path, body string) (int, []byte) {
	t.Helper()
	code, _, b := r.postWithHeaders(t, path, body)
	return code, b
}
