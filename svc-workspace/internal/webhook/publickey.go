package webhook

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// RSA key sizes accepted for encryptData (§14: 2048-bit recommended; less
// is refused as too weak, far more is refused as a cost attack).
const (
	minRSABits = 2048
	maxRSABits = 16384
)

// normalizePublicKey checks that key is the base64 (no PEM armour) DER of an
// RSA public key, PKIX or PKCS#1, of at least 2048 bits, and returns it
// without whitespace. An empty key is allowed (it clears the key).
func normalizePublicKey(key string) (string, error) {
	key = strings.Join(strings.Fields(key), "")
	if key == "" {
		return "", nil
	}
	if strings.HasPrefix(key, "-----") {
		return "", api.Errorf(api.InvalidArgument, "field publicKey must be base64 without PEM armour (no -----BEGIN line)")
	}
	der, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		return "", api.Errorf(api.InvalidArgument, "field publicKey is not valid base64")
	}
	pub, err := parseRSAPublicKey(der)
	if err != nil {
		return "", err
	}
	if bits := pub.N.BitLen(); bits < minRSABits || bits > maxRSABits {
		return "", api.Errorf(api.InvalidArgument, "field publicKey is a %d-bit RSA key; it must have %d to %d bits", bits, minRSABits, maxRSABits)
	}
	return key, nil
}

func parseRSAPublicKey(der []byte) (*rsa.PublicKey, error) {
	if pub, err := x509.ParsePKIXPublicKey(der); err == nil {
		rsaPub, ok := pub.(*rsa.PublicKey)
		if !ok {
			return nil, api.Errorf(api.InvalidArgument, "field publicKey must be an RSA public key")
		}
		return rsaPub, nil
	}
	if pub, err := x509.ParsePKCS1PublicKey(der); err == nil {
		return pub, nil
	}
	return nil, api.Errorf(api.InvalidArgument, "field publicKey is not a DER-encoded RSA public key (PKIX or PKCS#1)")
}
