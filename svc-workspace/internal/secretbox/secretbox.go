// Package secretbox encrypts secrets at rest (webhook signing secrets, the
// email provider's API key) with AES-256-GCM under DATA_ENCRYPTION_KEY.
//
// A sealed value is "v1:" followed by the unpadded base64url form of a
// random 12-byte nonce and the ciphertext with its tag. The version prefix
// lets a later format or key live next to this one. Every value is bound to
// a context string (what it is and whose it is), so a sealed secret copied
// into another record does not open there.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the size of the data encryption key in bytes.
const KeySize = 32

const versionPrefix = "v1:"

// ErrOpen is returned for a value that is not a sealed value of this key
// and context.
var ErrOpen = errors.New("secretbox: value does not open with this key and context")

// Box seals and opens values with one key.
type Box struct {
	aead cipher.AEAD
}

// New returns a Box over key, which must be KeySize bytes.
func New(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secretbox: key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secretbox: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secretbox: %w", err)
	}
	return &Box{aead: aead}, nil
}

// FromBase64 returns a Box over the standard base64 encoding of a key, as
// DATA_ENCRYPTION_KEY holds it. An empty string gives a nil Box and no
// error: the key is optional until a secret has to be stored.
func FromBase64(encoded string) (*Box, error) {
	encoded = strings.TrimSpace(encoded)
	if encoded == "" {
		return nil, nil
	}
	key, err := base64.StdEncoding.DecodeString(encoded)
	if err != nil {
		return nil, errors.New("secretbox: key is not valid base64")
	}
	return New(key)
}

// Seal encrypts plaintext bound to context.
func (b *Box) Seal(plaintext []byte, context string) string {
	nonce := make([]byte, b.aead.NonceSize())
	_, _ = rand.Read(nonce) // never fails (crypto/rand since Go 1.24)
	out := b.aead.Seal(nonce, nonce, plaintext, []byte(context))
	return versionPrefix + base64.RawURLEncoding.EncodeToString(out)
}

// Open decrypts a value sealed with the same key and context; ErrOpen for
// anything else.
func (b *Box) Open(sealed, context string) ([]byte, error) {
	rest, ok := strings.CutPrefix(sealed, versionPrefix)
	if !ok {
		return nil, ErrOpen
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || len(raw) < b.aead.NonceSize()+b.aead.Overhead() {
		return nil, ErrOpen
	}
	nonce, ciphertext := raw[:b.aead.NonceSize()], raw[b.aead.NonceSize():]
	plain, err := b.aead.Open(nil, nonce, ciphertext, []byte(context))
	if err != nil {
		return nil, ErrOpen
	}
	return plain, nil
}
