package realtime

import (
	"errors"
	"time"
)

// Settings are the realtime limits and timings; zero fields take the
// defaults below (svc-content's Config carries them as REALTIME_*).
type Settings struct {
	// MaxMessageBytes is the largest message a client may send; a larger
	// one closes the connection with 1009. A whole document (10 MB at most)
	// must fit in one sync message.
	MaxMessageBytes int64
	// SendQueueBytes bounds what may wait to be written to one client; a
	// client that falls further behind is disconnected (4008).
	SendQueueBytes int
	// WriteTimeout bounds one write to a client; a client that does not
	// read for that long is disconnected.
	WriteTimeout time.Duration
	// PingInterval is the liveness period: a ping every interval, and a
	// connection that answered none in the last interval is dropped.
	PingInterval time.Duration
	// MaxPerWorkspace and MaxPerDocument bound open document sessions
	// (a Hocuspocus socket may hold several), counted over every replica.
	MaxPerWorkspace int
	MaxPerDocument  int
	// AccessRecheck is how often an open session's access is decided
	// anew (identity events end sessions sooner; this is the safety net).
	AccessRecheck time.Duration
	// CatchUpInterval is how often a room compares itself with the store,
	// so a replica that missed fan-out messages converges.
	CatchUpInterval time.Duration
	// EventDebounce is the quiet time after an edit before the crdt
	// webhook event (and activity) of an editor is published.
	EventDebounce time.Duration
	// AuthTimeout is how long a Hocuspocus socket may stay open without
	// any authenticated document before it is closed (4401).
	AuthTimeout time.Duration
	// RoomLinger keeps an empty room loaded for this long, so a client
	// that reconnects finds it warm.
	RoomLinger time.Duration
	// CommitGather is how long an idle group commit waits after the
	// first update arrives, so the updates of the next moments share its
	// store write: it delays acknowledgements (and the fan-out to other
	// replicas) on a quiet replica by at most this, and relays to the
	// clients of the same replica not at all.
	CommitGather time.Duration
	// Solo says this hub is the only replica of the content service (one
	// process on its own embedded Redis and store): no other replica can
	// hear a fan-out message, so the hub neither publishes nor subscribes.
	// REST writes reach its rooms directly and the periodic catch-up still
	// runs; sessions are counted in process (Redis still carries access
	// events). Where another replica may share the store, leave it off:
	// the replicas' clients would see each other's edits only at a
	// catch-up, and each would count only its own sessions.
	Solo bool
}

// Defaults.
const (
	DefaultMaxMessageBytes = 16 << 20
	DefaultSendQueueBytes  = 16 << 20
	DefaultWriteTimeout    = 10 * time.Second
	DefaultPingInterval    = 30 * time.Second
	DefaultMaxPerWorkspace = 10000
	DefaultMaxPerDocument  = 500
	DefaultAccessRecheck   = 30 * time.Second
	DefaultCatchUp         = 30 * time.Second
	DefaultEventDebounce   = 5 * time.Second
	DefaultRoomLinger      = 10 * time.Second
	DefaultAuthTimeout     = 30 * time.Second
	DefaultCommitGather    = 5 * time.Millisecond
)

// WithDefaults fills the zero fields.
func (s Settings) WithDefaults() Settings {
	def := func(v *time.Duration, d time.Duration) {
		if *v == 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	if s.MaxMessageBytes == 0 {
		s.MaxMessageBytes = DefaultMaxMessageBytes
	}
	defInt(&s.SendQueueBytes, DefaultSendQueueBytes)
	defInt(&s.MaxPerWorkspace, DefaultMaxPerWorkspace)
	defInt(&s.MaxPerDocument, DefaultMaxPerDocument)
	def(&s.WriteTimeout, DefaultWriteTimeout)
	def(&s.PingInterval, DefaultPingInterval)
	def(&s.AccessRecheck, DefaultAccessRecheck)
	def(&s.CatchUpInterval, DefaultCatchUp)
	def(&s.EventDebounce, DefaultEventDebounce)
	def(&s.RoomLinger, DefaultRoomLinger)
	def(&s.AuthTimeout, DefaultAuthTimeout)
	def(&s.CommitGather, DefaultCommitGather)
	return s
}

// Validate refuses negative values.
func (s Settings) Validate() error {
	var errs []error
	if s.MaxMessageBytes < 0 || s.SendQueueBytes < 0 || s.MaxPerWorkspace < 0 || s.MaxPerDocument < 0 {
		errs = append(errs, errors.New("realtime limits must not be negative"))
	}
	for _, d := range []time.Duration{s.WriteTimeout, s.PingInterval, s.AccessRecheck, s.CatchUpInterval, s.EventDebounce, s.RoomLinger, s.AuthTimeout, s.CommitGather} {
		if d < 0 {
			errs = append(errs, errors.New("realtime durations must not be negative"))
			break
		}
	}
	return errors.Join(errs...)
}
