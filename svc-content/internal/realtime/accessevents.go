package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/redis/go-redis/v9"
)

// AccessRemovedEvent is svc-identity's event of removed grants (stream
// "events:identity"), naming one user (data.userId) or a batch
// (data.userIds): their sessions are decided again at once.
const (
	AccessRemovedEvent = "identity.access_removed"
	identityStream     = "events:identity"
)

// Invalidator drops cached access decisions of a user (IdentityAccess).
type Invalidator interface {
	Invalidate(workspace, user string)
}

// accessReadBlock bounds one read of identity's stream: a blocked read does
// not see its context end (go-redis), so stopping the service waits for
// one block (every test that stopped svc-content waited 5 s with a 5 s one).
const accessReadBlock = 500 * time.Millisecond

// FollowAccessEvents tails identity's stream from its end (every replica
// reads every event; none is acknowledged, since a missed one only delays
// the end of a session to the next periodic re-check) until ctx ends.
func (h *Hub) FollowAccessEvents(ctx context.Context, rdb *redis.Client, inv Invalidator) {
	last := "$"
	for ctx.Err() == nil {
		res, err := rdb.XRead(ctx, &redis.XReadArgs{Streams: []string{identityStream, last}, Count: 100, Block: accessReadBlock}).Result()
		if errors.Is(err, redis.Nil) {
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				h.logger.Warn("realtime: reading identity events failed", "error", err)
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
			continue
		}
		for _, s := range res {
			for _, m := range s.Messages {
				last = m.ID
				h.accessEvent(m, inv)
			}
		}
	}
}

func (h *Hub) accessEvent(m redis.XMessage, inv Invalidator) {
	raw, _ := m.Values["event"].(string)
	var ev struct {
		Type        string `json:"type"`
		WorkspaceID string `json:"workspaceId"`
		Data        struct {
			UserID  string   `json:"userId"`  // an event of one user
			UserIDs []string `json:"userIds"` // a batch (users/delete)
		} `json:"data"`
	}
	if json.Unmarshal([]byte(raw), &ev) != nil || ev.Type != AccessRemovedEvent {
		return
	}
	users := ev.Data.UserIDs
	if len(users) == 0 && ev.Data.UserID != "" {
		users = []string{ev.Data.UserID}
	}
	for _, user := range users {
		if inv != nil {
			inv.Invalidate(ev.WorkspaceID, user)
		}
		go h.sessions.recheckUser(ev.WorkspaceID, user)
	}
}
