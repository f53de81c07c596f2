package svccontent

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/svcclient"
	"github.com/opencollab/backend/svc-content/internal/crdt"
	"github.com/opencollab/backend/svc-content/internal/realtime"
)

// RealtimeConfig are the realtime sync settings (README, "Realtime sync").
type RealtimeConfig struct {
	MaxMessageBytes int64         `env:"REALTIME_MAX_MESSAGE_BYTES, default=16777216"`
	SendQueueBytes  int           `env:"REALTIME_SEND_QUEUE_BYTES, default=16777216"`
	MaxPerWorkspace int           `env:"REALTIME_MAX_CONNECTIONS_PER_WORKSPACE, default=10000"`
	MaxPerDocument  int           `env:"REALTIME_MAX_CONNECTIONS_PER_DOCUMENT, default=500"`
	AccessRecheck   time.Duration `env:"REALTIME_ACCESS_RECHECK, default=30s"`
	EventDebounce   time.Duration `env:"REALTIME_EVENT_DEBOUNCE, default=5s"`
	// Solo (not a setting: deploy/local sets it for its one replica on
	// its own embedded stores) turns the Redis fan-out off; see
	// realtime.Settings.Solo.
	Solo bool
}

func (c RealtimeConfig) settings() realtime.Settings {
	return realtime.Settings{
		MaxMessageBytes: c.MaxMessageBytes, SendQueueBytes: c.SendQueueBytes,
		MaxPerWorkspace: c.MaxPerWorkspace, MaxPerDocument: c.MaxPerDocument,
		AccessRecheck: c.AccessRecheck, EventDebounce: c.EventDebounce, Solo: c.Solo,
	}
}

// realtimeDoor wires the realtime hub to the CRDT store, identity (token
// decisions and their removal events) and the events of edits.
type realtimeDoor struct {
	hub    *realtime.Hub
	edits  *realtime.Debouncer
	cancel context.CancelFunc
	done   chan struct{}
}

func startRealtime(cfg Config, rdb *redis.Client, crdtSvc *crdt.Service, identity, activity *svcclient.Client, origins realtime.OriginPolicy, logger *slog.Logger) *realtimeDoor {
	s := cfg.Realtime.settings().WithDefaults()
	access := realtime.NewIdentityAccess(identity, s.AccessRecheck/2)
	pub := &editPublisher{crdt: crdtSvc, activity: activity}
	edits := realtime.NewDebouncer(pub, s.EventDebounce, logger)
	hub := realtime.NewHub(realtime.Options{
		Store: crdtStore{crdtSvc}, Access: access, Redis: rdb, Edits: edits, Origins: origins, Settings: s, Logger: logger,
	})
	pub.docs = hub
	crdtSvc.OnWrite(func(ctx context.Context, ws string, ed crdt.Editor, update []byte) {
		hub.Stored(ctx, realtime.DocKey{Workspace: ws, Org: ed.OrganizationID, Doc: ed.DocumentID, Editor: ed.EditorID}, update)
	})
	hub.Run()
	ctx, cancel := context.WithCancel(context.Background())
	d := &realtimeDoor{hub: hub, edits: edits, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(d.done)
		live := make(chan struct{})
		go func() {
			defer close(live)
			if !s.Solo { // a solo hub publishes no live state for others
				hub.FollowLiveState(ctx, rdb)
			}
		}()
		hub.FollowAccessEvents(ctx, rdb, access)
		<-live
	}()
	return d
}

// close ends the sessions gracefully, stores what is in flight, then
// publishes the pending edit events.
func (d *realtimeDoor) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d.hub.Close(ctx)
	d.cancel()
	<-d.done
	d.edits.Flush()
}

func editor(k realtime.DocKey) crdt.Editor {
	return crdt.Editor{OrganizationID: k.Org, DocumentID: k.Doc, EditorID: k.Editor}
}

// crdtStore is the realtime Store over the CRDT records.
type crdtStore struct{ crdt *crdt.Service }

func (s crdtStore) Load(ctx context.Context, k realtime.DocKey) ([]byte, realtime.Mark, error) {
	update, m, err := s.crdt.LoadMarked(ctx, k.Workspace, editor(k))
	return update, realtime.Mark(m), err
}

// CatchUp reads what the room lacks: this replica's appends are the
// room's own (one hub per CRDT service), so they are not read back.
func (s crdtStore) CatchUp(ctx context.Context, k realtime.DocKey, since realtime.Mark) ([]byte, realtime.Mark, error) {
	update, m, err := s.crdt.CatchUp(ctx, k.Workspace, editor(k), crdt.Mark(since))
	return update, realtime.Mark(m), err
}

// AppendBatch stores a replica's group commit with one
// AppendAppliedUpdates: the updates of all its documents in one store
// round trip, not decoded again (the rooms applied them).
func (s crdtStore) AppendBatch(ctx context.Context, batch []realtime.Append) []error {
	items := make([]crdt.Append, len(batch))
	for i, a := range batch {
		items[i] = crdt.Append{Workspace: a.Key.Workspace, Editor: editor(a.Key), Update: a.Update, UserID: a.By.UserID}
	}
	return s.crdt.AppendAppliedUpdates(ctx, items)
}

// editPublisher publishes crdt.update_data and, where the workspace has
// activities on, a crdt activity record (svc-activity answers
// FAILED_PRECONDITION when they are off).
type editPublisher struct {
	crdt     *crdt.Service
	activity *svcclient.Client
	// docs are the documents loaded here: the event's content is read
	// from them rather than from the store where they hold the editor.
	docs storedDocuments
}

// storedDocuments is what editPublisher needs of the realtime hub.
type storedDocuments interface {
	StoredDocument(ctx context.Context, key realtime.DocKey) ([]byte, bool, error)
}

func (p *editPublisher) PublishEdit(ctx context.Context, k realtime.DocKey, by realtime.Author) error {
	if err := p.publishEvent(ctx, k, by); err != nil {
		return err
	}
	if !p.activity.Configured() {
		return nil
	}
	record := map[string]any{
		"featureType": "crdt", "actionType": "crdt.update_data", "actionUser": map[string]string{"userId": by.UserID},
		"targetEntityId": k.Editor, "entityData": map[string]string{"editorId": k.Editor, "sessionId": by.SessionID},
	}
	in := map[string]any{"organizationId": k.Org, "documentId": k.Doc, "activities": []any{record}}
	err := p.activity.Call(ctx, "/v2/activities/add", internalauth.Workspace(k.Workspace), in, nil)
	var apiErr *api.Error
	if errors.As(err, &apiErr) && apiErr.Status == api.FailedPrecondition {
		return nil
	}
	return err
}

// publishEvent publishes crdt.update_data, from the document loaded here
// (no store read) when there is one.
func (p *editPublisher) publishEvent(ctx context.Context, k realtime.DocKey, by realtime.Author) error {
	if p.docs != nil {
		doc, ok, err := p.docs.StoredDocument(ctx, k)
		if err != nil {
			return err
		}
		if ok {
			return p.crdt.PublishEditedDocument(ctx, k.Workspace, editor(k), doc, by.UserID, by.SessionID)
		}
	}
	return p.crdt.PublishEdited(ctx, k.Workspace, editor(k), by.UserID, by.SessionID)
}
