package realtime

import (
	"context"
	"crypto/sha256"
	"sync"
	"time"

	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
)

// RealtimeAccessPath is svc-identity's route that verifies a user token
// and decides its access to a document (svc-identity
// internal/httpapi/realtime.go).
const RealtimeAccessPath = "/internal/realtime/access"

// identityPrincipal is svc-content's identity towards svc-identity.
var identityPrincipal = internalauth.Service("content-realtime")

// IdentityAccess asks svc-identity, caching each decision (granted or
// refused) per token and document for a short while, so reconnect storms
// and the periodic re-checks of many sessions cost identity one call per
// (workspace, user, document) and period. Invalidate drops a user's
// decisions at once (identity's access-removed events).
type IdentityAccess struct {
	client *svcclient.Client
	ttl    time.Duration
	// turns bounds the calls to identity under way. Each holds a pooled
	// HTTP connection (two goroutines and 8 KiB of buffers on each side,
	// identity's database connections behind them), which the pool keeps
	// once it opened it: a burst of connecting clients, unbounded, opened
	// one per client connecting at the same moment (50 in the realtime
	// benchmark, some 2 MiB kept for good).
	turns chan struct{}

	mu    sync.Mutex
	cache map[accessKey]accessEntry
	// asking holds the questions under way, each closed once its decision
	// is cached: a client asking the same question meanwhile waits for
	// that decision instead of making a call of its own.
	asking map[accessKey]chan struct{}
}

type accessKey struct {
	token    [32]byte // sha256 of the token
	org, doc string
}

type accessEntry struct {
	grant   Grant
	denial  *Denial
	expires time.Time
}

// NewIdentityAccess returns an Access asking identity through client and
// caching decisions for ttl.
func NewIdentityAccess(client *svcclient.Client, ttl time.Duration) *IdentityAccess {
	return &IdentityAccess{client: client, ttl: ttl, cache: map[accessKey]accessEntry{},
		asking: map[accessKey]chan struct{}{}, turns: make(chan struct{}, identityTurns)}
}

// identityTurns is how many calls to identity run at once: a decision is
// a round trip of a millisecond or two, so a few keep up with a reconnect
// storm of thousands of clients a second (decisions are cached).
const identityTurns = 4

type accessReply struct {
	Allowed         bool   `json:"allowed"`
	Unauthenticated bool   `json:"unauthenticated"`
	Reason          string `json:"reason"`
	WorkspaceID     string `json:"workspaceId"`
	UserID          string `json:"userId"`
	AccessRole      string `json:"accessRole"`
	ExpiresAt       int64  `json:"expiresAt"`
}

// Check implements Access.
func (a *IdentityAccess) Check(ctx context.Context, token, org, doc string) (Grant, error) {
	k := accessKey{token: sha256.Sum256([]byte(token)), org: org, doc: doc}
	for {
		e, hit, asked := a.cachedOrAsking(k)
		if hit {
			return e.result()
		}
		if asked == nil {
			break // this call asks; the others wait for its decision
		}
		select {
		case <-asked: // decided (or failed: then ask again)
		case <-ctx.Done():
			return Grant{}, ctx.Err()
		}
	}
	defer a.answered(k)
	select {
	case a.turns <- struct{}{}:
	case <-ctx.Done():
		return Grant{}, ctx.Err()
	}
	defer func() { <-a.turns }()
	return a.ask(ctx, k, token, org, doc)
}

// cachedOrAsking is the unexpired decision for k, if any; else the
// channel of the question under way for k, or nil when there is none and
// the caller now asks it (answered ends that).
func (a *IdentityAccess) cachedOrAsking(k accessKey) (accessEntry, bool, chan struct{}) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, hit := a.cache[k]; hit && time.Now().Before(e.expires) {
		return e, true, nil
	}
	if ch, ok := a.asking[k]; ok {
		return accessEntry{}, false, ch
	}
	a.asking[k] = make(chan struct{})
	return accessEntry{}, false, nil
}

// answered ends the question under way for k: its decision is cached,
// or the call failed and a waiting client asks again.
func (a *IdentityAccess) answered(k accessKey) {
	a.mu.Lock()
	ch := a.asking[k]
	delete(a.asking, k)
	a.mu.Unlock()
	close(ch)
}

// ask calls identity for k's decision and caches it.
func (a *IdentityAccess) ask(ctx context.Context, k accessKey, token, org, doc string) (Grant, error) {
	now := time.Now()
	var reply accessReply
	in := map[string]string{"token": token, "organizationId": org, "documentId": doc}
	if err := a.client.Call(ctx, RealtimeAccessPath, identityPrincipal, in, &reply); err != nil {
		return Grant{}, err
	}
	e := accessEntry{expires: now.Add(a.ttl)}
	switch {
	case reply.Allowed:
		e.grant = Grant{Workspace: reply.WorkspaceID, UserID: reply.UserID, Role: Role(reply.AccessRole), ExpiresAt: tokenExpiry(reply.ExpiresAt)}
		if e.grant.Role != RoleEditor {
			e.grant.Role = RoleViewer
		}
	default:
		e.denial = &Denial{Unauthenticated: reply.Unauthenticated, Reason: reply.Reason}
		e.grant = Grant{Workspace: reply.WorkspaceID, UserID: reply.UserID}
	}
	a.mu.Lock()
	a.sweepLocked(now)
	a.cache[k] = e
	a.mu.Unlock()
	return e.result()
}

func (e accessEntry) result() (Grant, error) {
	if e.denial != nil {
		return Grant{}, e.denial
	}
	return e.grant, nil
}

// Invalidate drops the cached decisions of a user.
func (a *IdentityAccess) Invalidate(workspace, user string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, e := range a.cache {
		if e.grant.Workspace == workspace && e.grant.UserID == user {
			delete(a.cache, k)
		}
	}
}

// sweepLocked drops expired entries once the cache grows, keeping it
// bounded by the decisions of one TTL.
func (a *IdentityAccess) sweepLocked(now time.Time) {
	if len(a.cache) < 1024 {
		return
	}
	for k, e := range a.cache {
		if now.After(e.expires) {
			delete(a.cache, k)
		}
	}
}

// secondsBelow separates the units of the token expiry identity answers:
// epoch milliseconds, like every expiresAt; an identity of an earlier
// version sent Unix seconds, which all lie below it (until the year 5138)
// while every millisecond time after 1973 lies above.
const secondsBelow = 100_000_000_000

// tokenExpiry reads identity's expiresAt in either unit, so a rolling
// upgrade of one service before the other keeps sessions ending on time.
func tokenExpiry(v int64) time.Time {
	if v < secondsBelow {
		return time.Unix(v, 0)
	}
	return time.UnixMilli(v)
}
