package svcworkspace_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/opencollab/backend/pkg/internalauth"
)

const (
	hookConfigGet    = "/v2/workspace/advancedwebhookconfig/get"
	hookConfigUpdate = "/v2/workspace/advancedwebhookconfig/update"
	endpointsCreate  = "/v2/workspace/advancedwebhook/endpoints/create"
	endpointsGet     = "/v2/workspace/advancedwebhook/endpoints/get"
	endpointsUpdate  = "/v2/workspace/advancedwebhook/endpoints/update"
	endpointsDelete  = "/v2/workspace/advancedwebhook/endpoints/delete"
	secretGet        = "/v2/workspace/advancedwebhook/endpoints/secret/get"
	secretRotate     = "/v2/workspace/advancedwebhook/endpoints/secret/rotate"
	attemptsGet      = "/v2/workspace/advancedwebhook/endpoints/attempts/get"
)

type hookConfig struct {
	IsEnabled            bool   `json:"isEnabled"`
	EncryptData          bool   `json:"encryptData"`
	EncodeData           bool   `json:"encodeData"`
	PublicKey            string `json:"publicKey"`
	EnableDataProtection bool   `json:"enableDataProtection"`
}

var rsaKeys sync.Map // bits → *rsa.PrivateKey

func rsaKey(t *testing.T, bits int) *rsa.PrivateKey {
	t.Helper()
	if k, ok := rsaKeys.Load(bits); ok {
		return k.(*rsa.PrivateKey)
	}
	k, err := rsa.GenerateKey(rand.Reader, bits)
	if err != nil {
		t.Fatal(err)
	}
	// Parallel tests may race to make the key of one size: all of them use
	// the first one stored (a test that sealed with one key and opened with
	// another failed with "crypto/rsa: decryption error").
	stored, _ := rsaKeys.LoadOrStore(bits, k)
	return stored.(*rsa.PrivateKey)
}

func pkixKey(t *testing.T, bits int) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(&rsaKey(t, bits).PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

// enableHooks turns advanced webhooks on for ws.
func (e *env) enableHooks(ws string) {
	e.T.Helper()
	e.OK(ws, hookConfigUpdate, map[string]any{"isEnabled": true}, nil)
}

func TestWebhookConfigDefaultsAndFirstUpdate(t *testing.T) {
	t.Parallel()
	e, ws := newKeyedEnv(t)
	var got hookConfig
	e.OK(ws, hookConfigGet, nil, &got)
	if got != (hookConfig{}) {
		t.Fatalf("never configured: %+v, want all defaults", got)
	}

	// The first update must enable.
	for _, first := range []map[string]any{{"encodeData": true}, {"isEnabled": false, "encodeData": true}} {
		r := e.Fails(ws, hookConfigUpdate, first, http.StatusBadRequest, "FAILED_PRECONDITION")
		if !strings.Contains(r.Error.Message, "isEnabled") {
			t.Fatalf("message %q does not name isEnabled", r.Error.Message)
		}
	}
	e.Fails(ws, hookConfigUpdate, map[string]any{}, http.StatusBadRequest, "INVALID_ARGUMENT")

	steps := []struct {
		change map[string]any
		want   hookConfig
	}{
		{map[string]any{"isEnabled": true, "encodeData": true}, hookConfig{IsEnabled: true, EncodeData: true}},
		{map[string]any{"enableDataProtection": true}, hookConfig{IsEnabled: true, EncodeData: true, EnableDataProtection: true}},
		{map[string]any{"isEnabled": false}, hookConfig{EncodeData: true, EnableDataProtection: true}},
	}
	for i, st := range steps {
		e.OK(ws, hookConfigUpdate, st.change, &got)
		if got != st.want {
			t.Fatalf("step %d: update returned %+v, want %+v", i, got, st.want)
		}
		e.OK(ws, hookConfigGet, map[string]any{}, &got)
		if got != st.want {
			t.Fatalf("step %d: get returned %+v, want %+v", i, got, st.want)
		}
	}
	// Once configured, later updates need not enable.
	e.OK(ws, hookConfigUpdate, map[string]any{"encodeData": false}, &got)
	if got != (hookConfig{EnableDataProtection: true}) {
		t.Fatalf("later update: %+v", got)
	}
}

func TestWebhookConfigPublicKey(t *testing.T) {
	t.Parallel()
	e, ws := newKeyedEnv(t)
	e.enableHooks(ws)
	good := pkixKey(t, 2048)
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ecDER, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	pkcs1 := base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PublicKey(&rsaKey(t, 2048).PublicKey))

	bad := []struct {
		name string
		data map[string]any
	}{
		{"not base64", map[string]any{"publicKey": "not base64 %%%"}},
		{"1024-bit key", map[string]any{"publicKey": pkixKey(t, 1024)}},
		{"PEM armour", map[string]any{"publicKey": "-----BEGIN PUBLIC KEY-----\n" + good + "\n-----END PUBLIC KEY-----"}},
		{"not a key", map[string]any{"publicKey": base64.StdEncoding.EncodeToString([]byte("hello"))}},
		{"EC key", map[string]any{"publicKey": base64.StdEncoding.EncodeToString(ecDER)}},
		{"encryptData without a key", map[string]any{"encryptData": true}},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(ws, hookConfigUpdate, tt.data, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, "publicKey") {
				t.Fatalf("message %q does not name publicKey", r.Error.Message)
			}
		})
	}
	var got hookConfig
	e.OK(ws, hookConfigGet, nil, &got)
	if got != (hookConfig{IsEnabled: true}) {
		t.Fatalf("refused updates changed the config: %+v", got)
	}

	e.OK(ws, hookConfigUpdate, map[string]any{"encryptData": true, "publicKey": good}, &got)
	if !got.EncryptData || got.PublicKey != good {
		t.Fatalf("with a 2048-bit key: %+v", got)
	}
	e.Fails(ws, hookConfigUpdate, map[string]any{"publicKey": ""}, http.StatusBadRequest, "INVALID_ARGUMENT")
	e.OK(ws, hookConfigUpdate, map[string]any{"publicKey": pkcs1}, &got)
	if got.PublicKey != pkcs1 {
		t.Fatalf("PKCS#1 key not taken: %+v", got)
	}
	e.OK(ws, hookConfigUpdate, map[string]any{"encryptData": false, "publicKey": ""}, &got)
	if got != (hookConfig{IsEnabled: true}) {
		t.Fatalf("after clearing: %+v", got)
	}
}

// TestWebhooksUnavailable: with the operator's switch off, or advanced
// webhooks never enabled or disabled, every webhook operation is
// FAILED_PRECONDITION.
func TestWebhooksUnavailable(t *testing.T) {
	t.Parallel()
	e, ws := newKeyedEnv(t)
	epID := "ep_unknown"
	endpointOps := []struct {
		path string
		data map[string]any
	}{
		{endpointsCreate, map[string]any{"url": "https://hooks.example.com/in"}},
		{endpointsGet, map[string]any{}},
		{endpointsUpdate, map[string]any{"endpointId": epID, "description": "x"}},
		{endpointsDelete, map[string]any{"endpointId": epID}},
		{secretGet, map[string]any{"endpointId": epID}},
		{secretRotate, map[string]any{"endpointId": epID}},
		{attemptsGet, map[string]any{"endpointId": epID}},
	}
	assertAll := func(stage string) {
		t.Helper()
		for _, op := range endpointOps {
			code, r := e.Call(ws, op.path, op.data)
			if code != http.StatusBadRequest || r.Error.Status != "FAILED_PRECONDITION" {
				t.Fatalf("%s: %s: HTTP %d %s (%s), want FAILED_PRECONDITION", stage, op.path, code, r.Error.Status, r.Error.Message)
			}
		}
	}
	assertAll("never enabled")
	e.enableHooks(ws)
	e.OK(ws, endpointsGet, nil, nil)
	e.OK(ws, hookConfigUpdate, map[string]any{"isEnabled": false}, nil)
	assertAll("disabled")

	// The operator's switch: even the configuration is out of reach.
	e.enableHooks(ws)
	apiKey := e.apiKeyOf(ws)
	e.OK(internalauth.Operator, featuresUpdate, map[string]any{"apiKey": apiKey, "features": map[string]any{"advancedWebhooks": false}}, nil)
	e.Fails(ws, hookConfigGet, nil, http.StatusBadRequest, "FAILED_PRECONDITION")
	e.Fails(ws, hookConfigUpdate, map[string]any{"isEnabled": true}, http.StatusBadRequest, "FAILED_PRECONDITION")
	assertAll("switched off")
	e.OK(internalauth.Operator, featuresUpdate, map[string]any{"apiKey": apiKey, "features": map[string]any{"advancedWebhooks": true}}, nil)
	e.OK(ws, endpointsGet, nil, nil)
}

// apiKeyOf finds the API key of a workspace principal in the store.
func (e *env) apiKeyOf(principal string) string {
	e.T.Helper()
	id, _ := internalauth.WorkspaceOf(principal)
	var doc struct {
		APIKey string `bson:"apiKey"`
	}
	if err := e.DB.Collection("workspaces").FindOne(e.T.Context(), map[string]any{"_id": id}).Decode(&doc); err != nil {
		e.T.Fatal(err)
	}
	return doc.APIKey
}
