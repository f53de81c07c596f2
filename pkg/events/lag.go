package events

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/opencollab/backend/pkg/telemetry"
)

// observeLag records how long the message waited in the stream: Redis
// stream ids start with the publication time in milliseconds.
func observeLag(ctx context.Context, stream, group, id string) {
	ms, _, _ := strings.Cut(id, "-")
	at, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return
	}
	telemetry.ObserveEventLag(ctx, stream, group, time.Since(time.UnixMilli(at)))
}
