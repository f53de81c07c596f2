package signing

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

const (
	// TokenIssuer is the iss claim of every user token.
	TokenIssuer = "opencollab"
	// TokenLifetime is how long a user token is valid (spec: 48 h).
	TokenLifetime = 48 * time.Hour
)

// TokenResource is one resource grant carried in a user token.
type TokenResource struct {
	Type           string `json:"type"`
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId,omitempty"`
	AccessRole     string `json:"accessRole"`
	ExpiresAt      *int64 `json:"expiresAt,omitempty"`
}

// TokenClaims is what a user token says, without the registered JWT claims.
type TokenClaims struct {
	WorkspaceID string
	UserID      string
	User        map[string]any
	Resources   []TokenResource
	// IssuedAt and ExpiresAt are set by ParseToken (IssueToken ignores
	// them: it issues at its now, for TokenLifetime).
	IssuedAt  time.Time
	ExpiresAt time.Time
}

// jwtClaims is the wire form: registered claims (iss, sub, iat, exp) plus ours.
type jwtClaims struct {
	jwt.RegisteredClaims
	WorkspaceID string          `json:"wid"`
	User        map[string]any  `json:"user"`
	Resources   []TokenResource `json:"resources"`
}

// ErrInvalidToken wraps every reason ParseToken rejects a token for.
var ErrInvalidToken = errors.New("signing: invalid token")

// IssueToken returns an HS256 JWT for c, issued at now and expiring 48 h
// later. A nil User or Resources is written as {} or [] so the claims always
// have the documented types.
func IssueToken(secret []byte, c TokenClaims, now time.Time) (string, error) {
	if len(secret) == 0 {
		return "", errors.New("signing: empty JWT secret")
	}
	if c.WorkspaceID == "" || c.UserID == "" {
		return "", errors.New("signing: token needs a workspace id and a user id")
	}
	claims := jwtClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    TokenIssuer,
			Subject:   c.UserID,
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(TokenLifetime)),
		},
		WorkspaceID: c.WorkspaceID,
		User:        c.User,
		Resources:   c.Resources,
	}
	if claims.User == nil {
		claims.User = map[string]any{}
	}
	if claims.Resources == nil {
		claims.Resources = []TokenResource{}
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(secret)
	if err != nil {
		return "", fmt.Errorf("signing: sign token: %w", err)
	}
	return signed, nil
}

// ParseToken checks token against secret at time now and returns its claims.
// It accepts only HS256, requires iss "opencollab", an exp after now, an iat
// not after now, and non-empty sub and wid. Errors wrap ErrInvalidToken.
func ParseToken(secret []byte, token string, now time.Time) (TokenClaims, error) {
	if len(secret) == 0 {
		return TokenClaims{}, fmt.Errorf("%w: empty JWT secret", ErrInvalidToken)
	}
	var claims jwtClaims
	_, err := jwt.ParseWithClaims(token, &claims,
		func(*jwt.Token) (any, error) { return secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithTimeFunc(func() time.Time { return now }),
		jwt.WithIssuer(TokenIssuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
	)
	if err != nil {
		return TokenClaims{}, fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	if claims.Subject == "" || claims.WorkspaceID == "" {
		return TokenClaims{}, fmt.Errorf("%w: missing sub or wid", ErrInvalidToken)
	}
	return TokenClaims{
		WorkspaceID: claims.WorkspaceID,
		UserID:      claims.Subject,
		User:        claims.User,
		Resources:   claims.Resources,
		IssuedAt:    claims.IssuedAt.Time,
		ExpiresAt:   claims.ExpiresAt.Time,
	}, nil
}

// TokenWorkspace reads the workspace a token claims to be of, without
// checking anything: it names the secret to verify the token with.
func TokenWorkspace(token string) (string, error) {
	var claims jwtClaims
	if _, _, err := jwt.NewParser().ParseUnverified(token, &claims); err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidToken, err)
	}
	if claims.WorkspaceID == "" {
		return "", fmt.Errorf("%w: missing wid", ErrInvalidToken)
	}
	return claims.WorkspaceID, nil
}
