package system

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
)

// Credentials are what a laptop user needs to call the local system. They
// are generated on first start and kept in DATA_DIR so later starts print
// the same ones (the server itself stores only token hashes).
type Credentials struct {
	APIKey        string `json:"apiKey"`
	AuthToken     string `json:"authToken"`
	OperatorToken string `json:"operatorToken"`
	// DataKey is svc-workspace's DATA_ENCRYPTION_KEY (base64 of 32 bytes),
	// which seals webhook secrets at rest: it must survive restarts with
	// the data, or stored secrets no longer open.
	DataKey string `json:"dataKey"`
}

const credentialsFile = "local-credentials.json"

// loadOrCreateCredentials reads dir/local-credentials.json, filling in any
// value the caller did not fix, and writes it back (0600).
func loadOrCreateCredentials(dir string, fixed Credentials) (Credentials, error) {
	path := filepath.Join(dir, credentialsFile)
	var stored Credentials
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &stored); err != nil {
			return Credentials{}, fmt.Errorf("read %s: %w", path, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return Credentials{}, fmt.Errorf("read %s: %w", path, err)
	}
	c := Credentials{
		APIKey:        firstNonEmpty(fixed.APIKey, stored.APIKey, "ak_"+randomBase62(24)),
		AuthToken:     firstNonEmpty(fixed.AuthToken, stored.AuthToken, "at_"+randomToken()),
		OperatorToken: firstNonEmpty(fixed.OperatorToken, stored.OperatorToken, "op_"+randomToken()),
		DataKey:       firstNonEmpty(fixed.DataKey, stored.DataKey, randomDataKey()),
	}
	if c != stored {
		out, _ := json.MarshalIndent(c, "", "  ")
		if err := os.WriteFile(path, out, 0o600); err != nil {
			return Credentials{}, fmt.Errorf("write %s: %w", path, err)
		}
	}
	return c, nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// randomDataKey returns the standard base64 of 32 random bytes.
func randomDataKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func randomBase62(n int) string {
	out := make([]byte, n)
	for i := range out {
		v, _ := rand.Int(rand.Reader, big.NewInt(int64(len(base62))))
		out[i] = base62[v.Int64()]
	}
	return string(out)
}
