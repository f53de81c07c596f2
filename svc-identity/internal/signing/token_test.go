package signing

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var tokenNow = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func sampleClaims() TokenClaims {
	return TokenClaims{
		WorkspaceID: "ws-1",
		UserID:      "u1",
		User:        map[string]any{"name": "Zoë <admin>", "email": "z@example.com", "isAdmin": true},
		Resources: []TokenResource{
			{Type: "organization", ID: "org-1", AccessRole: "editor"},
			{Type: "document", ID: "doc-1", OrganizationID: "org-1", AccessRole: "viewer", ExpiresAt: int64Ptr(1772409600)},
		},
	}
}

func TestTokenRoundTrip(t *testing.T) {
	tok, err := IssueToken(testSecret, sampleClaims(), tokenNow)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseToken(testSecret, tok, tokenNow.Add(time.Minute))
	if err != nil {
		t.Fatalf("ParseToken: %v", err)
	}
	want := sampleClaims()
	want.IssuedAt, want.ExpiresAt = tokenNow.Truncate(time.Second), tokenNow.Truncate(time.Second).Add(TokenLifetime)
	if !got.IssuedAt.Equal(want.IssuedAt) || !got.ExpiresAt.Equal(want.ExpiresAt) {
		t.Errorf("ParseToken() times %v, %v; want %v, %v", got.IssuedAt, got.ExpiresAt, want.IssuedAt, want.ExpiresAt)
	}
	got.IssuedAt, got.ExpiresAt, want.IssuedAt, want.ExpiresAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseToken() = %#v\nwant %#v", got, want)
	}
}

// TestTokenWireClaims pins the documented claim names and values.
func TestTokenWireClaims(t *testing.T) {
	tok, err := IssueToken(testSecret, sampleClaims(), tokenNow)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("token has %d parts", len(parts))
	}
	var header, claims map[string]any
	decodeSegment(t, parts[0], &header)
	decodeSegment(t, parts[1], &claims)

	if header["alg"] != "HS256" || header["typ"] != "JWT" {
		t.Errorf("header = %v", header)
	}
	want := map[string]any{
		"iss":  "opencollab",
		"sub":  "u1",
		"iat":  float64(tokenNow.Unix()),
		"exp":  float64(tokenNow.Add(48 * time.Hour).Unix()),
		"wid":  "ws-1",
		"user": map[string]any{"name": "Zoë <admin>", "email": "z@example.com", "isAdmin": true},
		"resources": []any{
			map[string]any{"type": "organization", "id": "org-1", "accessRole": "editor"},
			map[string]any{"type": "document", "id": "doc-1", "organizationId": "org-1",
				"accessRole": "viewer", "expiresAt": float64(1772409600)},
		},
	}
	if !reflect.DeepEqual(claims, want) {
		t.Errorf("claims = %v\nwant %v", claims, want)
	}
}

func TestIssueTokenEmptyUserAndResources(t *testing.T) {
	tok, err := IssueToken(testSecret, TokenClaims{WorkspaceID: "ws", UserID: "u"}, tokenNow)
	if err != nil {
		t.Fatal(err)
	}
	var claims map[string]any
	decodeSegment(t, strings.Split(tok, ".")[1], &claims)
	if u, ok := claims["user"].(map[string]any); !ok || len(u) != 0 {
		t.Errorf("user = %#v, want {}", claims["user"])
	}
	if r, ok := claims["resources"].([]any); !ok || len(r) != 0 {
		t.Errorf("resources = %#v, want []", claims["resources"])
	}
}

func TestIssueTokenRejectsBadInput(t *testing.T) {
	tests := []struct {
		name   string
		secret []byte
		claims TokenClaims
	}{
		{"empty secret", nil, sampleClaims()},
		{"no workspace", testSecret, TokenClaims{UserID: "u"}},
		{"no user", testSecret, TokenClaims{WorkspaceID: "ws"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := IssueToken(tt.secret, tt.claims, tokenNow); err == nil {
				t.Error("IssueToken() succeeded, want error")
			}
		})
	}
}

func TestTokenExpiry(t *testing.T) {
	tok, err := IssueToken(testSecret, sampleClaims(), tokenNow)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseToken(testSecret, tok, tokenNow.Add(48*time.Hour-time.Second)); err != nil {
		t.Errorf("just before 48 h: %v", err)
	}
	_, err = ParseToken(testSecret, tok, tokenNow.Add(48*time.Hour+time.Second))
	if !errors.Is(err, ErrInvalidToken) || !errors.Is(err, jwt.ErrTokenExpired) {
		t.Errorf("after 48 h: err = %v, want expired", err)
	}
}

func TestParseTokenRejects(t *testing.T) {
	valid := registered(tokenNow)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	goodToken, err := IssueToken(testSecret, sampleClaims(), tokenNow)
	if err != nil {
		t.Fatal(err)
	}
	noIssuer := valid
	noIssuer.Issuer = ""
	noExp := valid
	noExp.ExpiresAt = nil
	future := valid
	future.IssuedAt = jwt.NewNumericDate(tokenNow.Add(time.Hour))
	noWorkspace := jwtClaims{RegisteredClaims: valid}

	tests := []struct {
		name  string
		token string
	}{
		{"alg none", sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claimsWith(valid))},
		{"alg none hand-made", handMadeNone(t, claimsWith(valid))},
		{"RS256", sign(t, jwt.SigningMethodRS256, rsaKey, claimsWith(valid))},
		{"HS384 with the right secret", sign(t, jwt.SigningMethodHS384, testSecret, claimsWith(valid))},
		{"wrong secret", sign(t, jwt.SigningMethodHS256, []byte("wrong secret"), claimsWith(valid))},
		{"wrong issuer", sign(t, jwt.SigningMethodHS256, testSecret, claimsWith(noIssuer))},
		{"no exp", sign(t, jwt.SigningMethodHS256, testSecret, claimsWith(noExp))},
		{"issued in the future", sign(t, jwt.SigningMethodHS256, testSecret, claimsWith(future))},
		{"no wid", sign(t, jwt.SigningMethodHS256, testSecret, noWorkspace)},
		{"tampered payload", tamperPayload(t, goodToken)},
		{"garbage", "not.a.token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseToken(testSecret, tt.token, tokenNow)
			if !errors.Is(err, ErrInvalidToken) {
				t.Errorf("ParseToken() err = %v, want ErrInvalidToken", err)
			}
		})
	}
	// Guard: the fixtures are otherwise valid, so each case fails for its reason.
	if _, err := ParseToken(testSecret, sign(t, jwt.SigningMethodHS256, testSecret, claimsWith(valid)), tokenNow); err != nil {
		t.Fatalf("control token rejected: %v", err)
	}
	if _, err := ParseToken(nil, goodToken, tokenNow); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("empty secret: err = %v", err)
	}
}

func registered(now time.Time) jwt.RegisteredClaims {
	return jwt.RegisteredClaims{
		Issuer:    TokenIssuer,
		Subject:   "u1",
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(TokenLifetime)),
	}
}

func claimsWith(r jwt.RegisteredClaims) jwtClaims {
	return jwtClaims{RegisteredClaims: r, WorkspaceID: "ws-1", User: map[string]any{}, Resources: []TokenResource{}}
}

func sign(t *testing.T, m jwt.SigningMethod, key any, c jwtClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(m, c).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func handMadeNone(t *testing.T, c jwtClaims) string {
	t.Helper()
	payload, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc.EncodeToString(payload) + "."
}

// tamperPayload changes wid in a validly signed token, keeping its signature.
func tamperPayload(t *testing.T, tok string) string {
	t.Helper()
	parts := strings.Split(tok, ".")
	var claims map[string]any
	decodeSegment(t, parts[1], &claims)
	claims["wid"] = "ws-2"
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	return parts[0] + "." + base64.RawURLEncoding.EncodeToString(payload) + "." + parts[2]
}

func decodeSegment(t *testing.T, seg string, v any) {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}
