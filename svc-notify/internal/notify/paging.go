package notify

import (
	"encoding/base64"
	"encoding/json"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/pagetoken"
)

// Page sizes of notifications/get.
const (
	DefaultPageSize = 1000
	MaxPageSize     = 1000
	// UnpagedLimit bounds v1 notifications/get, which has no paging: it
	// returns the newest (or oldest, in ascending order) this many.
	UnpagedLimit = 1000
)

// queryKey binds page tokens to one operation and filter.
func queryKey(op string, filter any) string { return pagetoken.QueryKey(op, filter) }

// feedCursor is a user-data cursor: a position in the user's feed.
type feedCursor struct {
	Before int64 `json:"b"`
}

// encodeFeedCursor renders a feed position as an opaque string for
// internal callers, who hand it back unchanged (no Redis round trip).
func encodeFeedCursor(before int64) string {
	b, _ := json.Marshal(feedCursor{Before: before})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeFeedCursor reads encodeFeedCursor's output; 0 for "".
func decodeFeedCursor(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	var c feedCursor
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Before <= 0 {
		return 0, api.Errorf(api.InvalidArgument, "field after is not a cursor returned by this operation")
	}
	return c.Before, nil
}
