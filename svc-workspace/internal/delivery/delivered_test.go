package delivery_test

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/opencollab/backend/pkg/testenv"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// activityRecord is the data of the published events.
func activityRecord() map[string]any {
	return map[string]any{
		"id":         "act_1",
		"actionType": "comment.add",
		"actionUser": map[string]any{
			"userId": "u1", "name": "Ada Lovelace", "name_lowercase": "ada lovelace",
			"email": "ada@example.com", "photoUrl": "https://example.com/ada.png",
		},
		"entityData": map[string]any{"name": "Roadmap", "commentText": "looks good"},
		"metadata":   map[string]any{"documentId": "doc_1", "organizationId": "org_1"},
		"timestamp":  1700000000123,
	}
}

// protectedRecord is activityRecord with data protection applied.
func protectedRecord() map[string]any {
	r := activityRecord()
	r["actionUser"] = map[string]any{"userId": "u1"}
	return r
}

func expectedBody(id string, data map[string]any) map[string]any {
	return map[string]any{
		"event": "activity.add", "actionType": "add", "source": "activity",
		"data": data, "webhookId": id, "platform": "sdk",
	}
}

// TestDeliveredBodies delivers one event to endpoints of workspaces with
// every configuration and checks each body — verified with the Standard
// Webhooks library by the receiver, decoded or decrypted with the private
// key — against the default body.
func TestDeliveredBodies(t *testing.T) {
	t.Parallel()
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkix, err := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pkixKey := base64.StdEncoding.EncodeToString(pkix)
	pkcs1Key := base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PublicKey(&priv.PublicKey))

	cases := []struct {
		ws     string
		cfg    webhook.Config
		decode func(t *testing.T, body []byte) []byte // → the default body
		data   map[string]any
	}{
		{ws: "ws_plain", cfg: webhook.Config{}, decode: asIs, data: activityRecord()},
		{ws: "ws_encoded", cfg: webhook.Config{EncodeData: true}, decode: decodeBase64, data: activityRecord()},
		{ws: "ws_encrypted", cfg: webhook.Config{EncryptData: true, PublicKey: pkixKey}, decode: decrypter(priv), data: activityRecord()},
		{ws: "ws_encrypted_pkcs1_and_encoded", cfg: webhook.Config{EncryptData: true, EncodeData: true, PublicKey: pkcs1Key}, decode: decrypter(priv), data: activityRecord()},
		{ws: "ws_protected", cfg: webhook.Config{EnableDataProtection: true}, decode: asIs, data: protectedRecord()},
		{ws: "ws_protected_encrypted", cfg: webhook.Config{EnableDataProtection: true, EncryptData: true, PublicKey: pkixKey}, decode: decrypter(priv), data: protectedRecord()},
	}
	db, rdb := testenv.Mongo(t), testenv.Redis(t)
	rcv := newReceiver(t)
	targets := newFakeTargets()
	for _, c := range cases {
		path := "/" + c.ws
		rcv.verifyWith(path, targets.add(c.ws, c.cfg, webhook.Endpoint{ID: "ep_" + c.ws, URL: rcv.url(path)}))
	}
	// Endpoints that must get nothing: another filter, disabled.
	targets.add("ws_plain", webhook.Config{}, webhook.Endpoint{ID: "ep_filtered", URL: rcv.url("/filtered"), FilterTypes: []string{"comment.add"}})
	targets.add("ws_plain", webhook.Config{}, webhook.Endpoint{ID: "ep_disabled", URL: rcv.url("/disabled"), Disabled: true})
	start(t, db, rdb, targets, testOptions(t))

	eventIDs := map[string]string{}
	for _, c := range cases {
		eventIDs[c.ws] = publish(t, rdb, c.ws, activityRecord())[0].ID
	}
	waitFor(t, "a delivery per workspace", func() bool { return len(rcv.deliveries()) >= len(cases) })

	byPath := map[string]request{}
	for _, d := range rcv.deliveries() {
		if _, dup := byPath[d.Path]; dup {
			t.Errorf("%s got more than one delivery", d.Path)
		}
		byPath[d.Path] = d
	}
	for _, c := range cases {
		t.Run(c.ws, func(t *testing.T) {
			d, ok := byPath["/"+c.ws]
			if !ok {
				t.Fatal("no delivery")
			}
			id := eventIDs[c.ws] + ":ep_" + c.ws
			if got := d.Header.Get("webhook-id"); got != id {
				t.Errorf("webhook-id = %q, want %q", got, id)
			}
			assertJSON(t, c.decode(t, d.Body), expectedBody(id, c.data))
		})
	}
	for _, p := range []string{"/filtered", "/disabled"} {
		if _, ok := byPath[p]; ok {
			t.Errorf("%s got a delivery", p)
		}
	}
}

func asIs(_ *testing.T, body []byte) []byte { return body }

func decodeBase64(t *testing.T, body []byte) []byte {
	var b struct {
		EncodedPayload string `json:"encodedPayload"`
	}
	mustUnmarshal(t, body, &b)
	raw, err := base64.StdEncoding.DecodeString(b.EncodedPayload)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// decrypter undoes encryptData with the private key: RSA-OAEP (SHA-256)
// unwraps the AES-256 key, AES-CBC decrypts, PKCS#7 padding is removed.
func decrypter(priv *rsa.PrivateKey) func(t *testing.T, body []byte) []byte {
	return func(t *testing.T, body []byte) []byte {
		var b struct{ EncryptedData, EncryptedKey, IV string }
		mustUnmarshal(t, body, &b)
		data, key, iv := mustBase64(t, b.EncryptedData), mustBase64(t, b.EncryptedKey), mustBase64(t, b.IV)
		aesKey, err := rsa.DecryptOAEP(sha256.New(), nil, priv, key, nil)
		if err != nil {
			t.Fatalf("unwrap key: %v", err)
		}
		if len(aesKey) != 32 || len(iv) != aes.BlockSize || len(data)%aes.BlockSize != 0 || len(data) == 0 {
			t.Fatalf("key %d bytes, iv %d bytes, data %d bytes", len(aesKey), len(iv), len(data))
		}
		block, err := aes.NewCipher(aesKey)
		if err != nil {
			t.Fatal(err)
		}
		plain := make([]byte, len(data))
		cipher.NewCBCDecrypter(block, iv).CryptBlocks(plain, data)
		pad := int(plain[len(plain)-1])
		if pad < 1 || pad > aes.BlockSize || !bytes.Equal(plain[len(plain)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
			t.Fatalf("bad PKCS#7 padding %d", pad)
		}
		return plain[:len(plain)-pad]
	}
}

func mustBase64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("not base64: %q", s)
	}
	return b
}

func mustUnmarshal(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%v in %s", err, raw)
	}
}

// assertJSON compares a JSON document with want by value.
func assertJSON(t *testing.T, raw []byte, want map[string]any) {
	t.Helper()
	var got any
	mustUnmarshal(t, raw, &got)
	wantRaw, _ := json.Marshal(want)
	var wantV any
	mustUnmarshal(t, wantRaw, &wantV)
	if !reflect.DeepEqual(got, wantV) {
		t.Errorf("body\n got %s\nwant %s", raw, wantRaw)
	}
}
