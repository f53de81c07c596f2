package notify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"time"

	"github.com/opencollab/backend/pkg/events"
)

// EventSource names this service on its event stream (events:notify).
const EventSource = "notify"

// Event types.
const (
	EventAdd    = "notification.add"
	EventUpdate = "notification.update"
	EventDelete = "notification.delete"
)

// PageTokens keeps pagination cursors behind opaque tokens (pagetoken.Store).
type PageTokens interface {
	Save(ctx context.Context, workspaceID, queryKey, cursor string) (string, error)
	Load(ctx context.Context, workspaceID, queryKey, token string) (string, error)
}

// Publisher publishes domain events (events.Publisher).
type Publisher interface {
	Publish(ctx context.Context, events ...events.Event) error
}

// Service runs the notification operations.
type Service struct {
	store  Store
	pages  PageTokens
	events Publisher
	access AccessChecker // nil: verifyUserPermissions answers UNAVAILABLE
	scope  ScopeEnsurer  // nil: createOrganization and createDocument have no effect
	log    *slog.Logger
	now    func() time.Time
	newID  func() string
}

// NewService returns a Service. logger may be nil.
func NewService(store Store, pages PageTokens, publisher Publisher, logger *slog.Logger) *Service {
	if logger == nil {
		logger = slog.Default()
	}
	return &Service{store: store, pages: pages, events: publisher, log: logger, now: time.Now, newID: randomID}
}

// WithAccess sets who decides recipients' document access for
// AddVerified.
func (s *Service) WithAccess(a AccessChecker) *Service {
	s.access = a
	return s
}

// randomID is the id of a notification added without notificationId.
func randomID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics instead)
	return "ntf_" + hex.EncodeToString(b[:])
}

// publish announces the notifications as they are now. The change is
// already saved, so a failure is logged and not returned: the publisher has
// tried Redis and its outbox, and the client must not retry a done write.
func (s *Service) publish(ctx context.Context, typ, ws string, ns []Notification) {
	if len(ns) == 0 {
		return
	}
	evs := make([]events.Event, 0, len(ns))
	for _, n := range ns {
		e, err := events.New(typ, EventSource, ws, n.OrganizationID, n.DocumentID, n.Record(""))
		if err != nil {
			s.log.ErrorContext(ctx, "build event", "type", typ, "error", err)
			return
		}
		evs = append(evs, e)
	}
	if err := s.events.Publish(ctx, evs...); err != nil {
		s.log.ErrorContext(ctx, "publish events", "type", typ, "count", len(evs), "error", err)
	}
}
