// Package pagetoken keeps pagination cursors in Redis behind opaque random
// tokens. A token is bound to the workspace and the query that made it: any
// other workspace or query (or an expired token) gets INVALID_ARGUMENT.
//
// While Redis is unavailable the API stays up: Save issues a sealed token
// instead (the entry itself, encrypted and authenticated, see sealed.go),
// which any replica opens without Redis, and Load of a Redis token answers
// UNAVAILABLE, asking the caller to retry.
package pagetoken

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/api"
)

// DefaultTTL is how long a page token stays usable.
const DefaultTTL = 24 * time.Hour

// Store issues and resolves page tokens.
type Store struct {
	rdb  redis.Cmdable
	ttl  time.Duration
	seal *sealer
	now  func() time.Time
}

// New returns a Store keeping tokens for ttl (DefaultTTL when 0). Its
// sealed tokens use a key of this process until WithSecret names a shared
// one.
func New(rdb redis.Cmdable, ttl time.Duration) *Store {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Store{rdb: rdb, ttl: ttl, seal: newSealer(rand.Text()), now: time.Now}
}

// WithSecret derives the sealed-token key from secret (the services'
// shared internal secret), so every replica opens the tokens of the others.
func (s *Store) WithSecret(secret string) *Store {
	if secret != "" {
		s.seal = newSealer(secret)
	}
	return s
}

type entry struct {
	Workspace string `json:"w"`
	Query     string `json:"q"`
	Cursor    string `json:"c"`
	Expires   int64  `json:"e,omitempty"` // unix seconds; sealed tokens only
}

// errUnavailable answers a Redis token while Redis cannot be reached.
var errUnavailable = api.Errorf(api.Unavailable,
	"pageToken cannot be read right now (its store is unavailable); retry in a few seconds")

// QueryKey fingerprints a query. Pass the query without its page token and
// page size, so a caller may change the page size between pages.
func QueryKey(scope string, query any) string {
	b, _ := json.Marshal(query)
	sum := sha256.Sum256(append([]byte(scope+"\x00"), b...))
	return hex.EncodeToString(sum[:16])
}

// Save stores cursor and returns a new token for it.
func (s *Store) Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error) {
	var raw [18]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", fmt.Errorf("page token: %w", err)
	}
	token := hex.EncodeToString(raw[:])
	b, _ := json.Marshal(entry{Workspace: workspaceID, Query: queryKey, Cursor: cursor})
	if err := s.rdb.Set(ctx, key(token), b, s.ttl).Err(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("save page token: %w", err)
		}
		return s.seal.seal(entry{Workspace: workspaceID, Query: queryKey, Cursor: cursor,
			Expires: s.now().Add(s.ttl).Unix()})
	}
	return token, nil
}

// Load resolves token for this workspace and query.
func (s *Store) Load(ctx context.Context, workspaceID, queryKey, token string) (string, error) {
	if isSealed(token) {
		e, ok := s.seal.open(token)
		if !ok || e.Expires < s.now().Unix() {
			return "", errUnknown
		}
		return check(e, workspaceID, queryKey)
	}
	if !isRedisToken(token) {
		return "", errUnknown
	}
	b, err := s.rdb.Get(ctx, key(token)).Bytes()
	if errors.Is(err, redis.Nil) {
		return "", errUnknown
	}
	if err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("load page token: %w", err)
		}
		return "", errUnavailable
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil {
		return "", errForeign
	}
	return check(e, workspaceID, queryKey)
}

var (
	errUnknown = api.Errorf(api.InvalidArgument, "pageToken is unknown or expired; start again without a pageToken")
	errForeign = api.Errorf(api.InvalidArgument, "pageToken does not belong to this query")
)

func check(e entry, workspaceID, queryKey string) (string, error) {
	if e.Workspace != workspaceID || e.Query != queryKey {
		return "", errForeign
	}
	return e.Cursor, nil
}

// isRedisToken reports whether token has the shape Save gives Redis
// tokens (36 hex digits); anything else is unknown without asking Redis.
func isRedisToken(token string) bool {
	if len(token) != 36 {
		return false
	}
	_, err := hex.DecodeString(token)
	return err == nil
}

func key(token string) string { return "pagetoken:" + token }

// LoadCursor resolves token of queryKey to the JSON cursor it holds; nil
// for "" (the first page). A cursor that does not decode is
// INVALID_ARGUMENT.
func LoadCursor[C any](ctx context.Context, s interface {
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}, workspaceID, queryKey, token string) (*C, error) {
	if token == "" {
		return nil, nil
	}
	raw, err := s.Load(ctx, workspaceID, queryKey, token)
	if err != nil {
		return nil, err
	}
	var c C
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		return nil, api.Errorf(api.InvalidArgument, "pageToken is malformed; start again without a pageToken")
	}
	return &c, nil
}

// SaveCursor stores cursor as JSON under queryKey and returns its token.
func SaveCursor(ctx context.Context, s interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
}, workspaceID, queryKey string, cursor any) (string, error) {
	b, err := json.Marshal(cursor)
	if err != nil {
		return "", fmt.Errorf("encode cursor: %w", err)
	}
	return s.Save(ctx, workspaceID, queryKey, string(b))
}
