package realtime

import (
	"testing"
	"time"
)

// identity answers the token expiry in epoch ms; one of an earlier version
// in Unix seconds. Both end the session at the same instant.
func TestTokenExpiryReadsMillisecondsAndSeconds(t *testing.T) {
	exp := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for name, v := range map[string]int64{"ms": exp.UnixMilli(), "seconds": exp.Unix()} {
		if got := tokenExpiry(v); !got.Equal(exp) {
			t.Errorf("%s: %d read as %v, want %v", name, v, got, exp)
		}
	}
}
