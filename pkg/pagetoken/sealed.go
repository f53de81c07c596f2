package pagetoken

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// sealedPrefix marks a sealed token; Redis tokens are hex and never hold a
// dot.
const sealedPrefix = "s."

// maxSealedLen bounds what open decrypts: an entry is a cursor and two
// short ids, far below this.
const maxSealedLen = 8 << 10

// sealer encrypts and authenticates entries with AES-256-GCM, so a sealed
// token can be neither read nor forged by its holder.
type sealer struct{ aead cipher.AEAD }

func newSealer(secret string) *sealer {
	k := sha256.Sum256([]byte("opencollab page token v1\x00" + secret))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		panic(err) // a 32-byte key always makes a cipher
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return &sealer{aead: aead}
}

func isSealed(token string) bool { return strings.HasPrefix(token, sealedPrefix) }

func (s *sealer) seal(e entry) (string, error) {
	plain, err := json.Marshal(e)
	if err != nil {
		return "", fmt.Errorf("seal page token: %w", err)
	}
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(plain)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal page token: %w", err)
	}
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, plain, nil)), nil
}

// open returns the entry of a sealed token; false for anything this
// sealer did not seal.
func (s *sealer) open(token string) (entry, bool) {
	if len(token) > maxSealedLen {
		return entry{}, false
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(token, sealedPrefix))
	if err != nil || len(raw) < s.aead.NonceSize() {
		return entry{}, false
	}
	n := s.aead.NonceSize()
	plain, err := s.aead.Open(nil, raw[:n], raw[n:], nil)
	if err != nil {
		return entry{}, false
	}
	var e entry
	if err := json.Unmarshal(plain, &e); err != nil {
		return entry{}, false
	}
	return e, true
}
