package delivery

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
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// transform turns the stored default body into what is sent, with the
// configuration current at this attempt. Data protection comes first, so
// personal fields never reach the other steps. With both encryptData and
// encodeData on, the plain JSON is encrypted and not also base64-wrapped:
// the encrypted body's fields are base64 already.
func transform(payload []byte, cfg webhook.Config) ([]byte, error) {
	var err error
	if cfg.EnableDataProtection {
		if payload, err = protect(payload); err != nil {
			return nil, err
		}
	}
	switch {
	case cfg.EncryptData:
		return encrypt(payload, cfg.PublicKey)
	case cfg.EncodeData:
		return json.Marshal(map[string]string{"encodedPayload": base64.StdEncoding.EncodeToString(payload)})
	}
	return payload, nil
}

// encryptedBody is the body with encryptData on (§14).
type encryptedBody struct {
	EncryptedData string `json:"encryptedData"`
	EncryptedKey  string `json:"encryptedKey"`
	IV            string `json:"iv"`
}

// encrypt seals payload with AES-256-CBC (PKCS#7 padding) under a fresh
// random key and IV, and wraps the key with RSA-OAEP (SHA-256) for the
// workspace's public key.
func encrypt(payload []byte, publicKey string) ([]byte, error) {
	pub, err := parsePublicKey(publicKey)
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	iv := make([]byte, aes.BlockSize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if _, err := rand.Read(iv); err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	plain := pkcs7Pad(payload, aes.BlockSize)
	sealed := make([]byte, len(plain))
	cipher.NewCBCEncrypter(block, iv).CryptBlocks(sealed, plain)
	wrapped, err := rsa.EncryptOAEP(sha256.New(), rand.Reader, pub, key, nil)
	if err != nil {
		return nil, fmt.Errorf("wrap the payload key with the public key: %w", err)
	}
	enc := base64.StdEncoding
	return json.Marshal(encryptedBody{
		EncryptedData: enc.EncodeToString(sealed), EncryptedKey: enc.EncodeToString(wrapped), IV: enc.EncodeToString(iv),
	})
}

func pkcs7Pad(b []byte, size int) []byte {
	n := size - len(b)%size
	return append(bytes.Clone(b), bytes.Repeat([]byte{byte(n)}, n)...)
}

// parsePublicKey reads the configured key: base64 DER, SubjectPublicKeyInfo
// or PKCS#1. PEM armour, which the spec says is not used, is tolerated.
func parsePublicKey(s string) (*rsa.PublicKey, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("encryptData is on but no publicKey is configured")
	}
	var der []byte
	if block, _ := pem.Decode([]byte(s)); block != nil {
		der = block.Bytes
	} else {
		var err error
		if der, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(s), "")); err != nil {
			return nil, errors.New("publicKey is not base64")
		}
	}
	if key, err := x509.ParsePKIXPublicKey(der); err == nil {
		if rsaKey, ok := key.(*rsa.PublicKey); ok {
			return rsaKey, nil
		}
		return nil, errors.New("publicKey is not an RSA key")
	}
	if key, err := x509.ParsePKCS1PublicKey(der); err == nil {
		return key, nil
	}
	return nil, errors.New("publicKey is not an RSA public key (PKIX or PKCS#1 DER)")
}

// personalKeys are removed everywhere with enableDataProtection: they hold
// a person's e-mail address or name whatever object they sit in.
var personalKeys = map[string]bool{"email": true, "email_lowercase": true, "clientUserName": true}

// userKeys are removed from user objects (those with a userId, as every
// User of the spec has): outside them "name" names documents, files and
// organizations, which are not personal.
var userKeys = map[string]bool{"name": true, "name_lowercase": true, "photoUrl": true, "initial": true}

// protect removes personal fields (names, e-mail addresses, photos) from
// the payload, at any depth. User ids stay: the receiver needs them to
// look the person up in its own systems.
func protect(payload []byte) ([]byte, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(payload))
	dec.UseNumber() // keep numbers exactly as they were
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("data protection: %w", err)
	}
	return json.Marshal(stripPersonal(v))
}

func stripPersonal(v any) any {
	switch t := v.(type) {
	case map[string]any:
		_, isUser := t["userId"]
		for k, child := range t {
			if personalKeys[k] || (isUser && userKeys[k]) {
				delete(t, k)
				continue
			}
			t[k] = stripPersonal(child)
		}
	case []any:
		for i := range t {
			t[i] = stripPersonal(t[i])
		}
	}
	return v
}
