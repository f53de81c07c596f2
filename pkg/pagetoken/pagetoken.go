// Package pagetoken keeps pagination cursors in Redis behind opaque random
// tokens. A token is bound to the workspace and the query that made it: any
// other workspace or query (or an expired token) gets INVALID_ARGUMENT.
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
	rdb redis.Cmdable
	ttl time.Duration
}

// New returns a Store keeping tokens for ttl (DefaultTTL when 0).
func New(rdb redis.Cmdable, ttl time.Duration) *Store {
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Store{rdb: rdb, ttl: ttl}
}

type entry struct {
	Workspace string `json:"w"`
	Query     string `json:"q"`
	Cursor    string `json:"c"`
}

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
		return "", fmt.Errorf("save page token: %w", err)
	}
	return token, nil
}

// Load resolves token for this workspace and query.
func (s *Store) Load(ctx context.Context, workspaceID, queryKey, token string) (string, error) {
	b, err := s.rdb.Get(ctx, key(token)).Bytes()
	if errors.Is(err, redis.Nil) {
		return "", api.Errorf(api.InvalidArgument, "pageToken is unknown or expired; start again without a pageToken")
	}
	if err != nil {
		return "", fmt.Errorf("load page token: %w", err)
	}
	var e entry
	if err := json.Unmarshal(b, &e); err != nil || e.Workspace != workspaceID || e.Query != queryKey {
		return "", api.Errorf(api.InvalidArgument, "pageToken does not belong to this query")
	}
	return e.Cursor, nil
}

func key(token string) string { return "pagetoken:" + token }
