// Package delivery sends the services' domain events to the workspaces'
// advanced webhook endpoints: it consumes the event streams, turns every
// event into one message per matching endpoint, and delivers the messages
// signed (Standard Webhooks), transformed as configured (data protection,
// base64, encryption) and retried on the documented schedule.
//
// Delivery is at-least-once and survives restarts: messages and attempts
// are stored before anything is sent. Several replicas share the work; each
// attempt is claimed by inserting its record under a unique id, the only
// atomic primitive FerretDB v1 offers (see attempt.go for the scheme).
package delivery

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/events"
	"github.com/opencollab/backend/svc-workspace/internal/webhook"
)

// ConsumerGroup is the consumer group every replica reads the event
// streams in: each event reaches one replica.
const ConsumerGroup = "webhooks"

// ExhaustedEventType is the delivery event sent, to endpoints that name it
// in their filterTypes, when a message has failed its last attempt.
const ExhaustedEventType = "message.attempt.exhausted"

// Defaults of Options (DESIGN.md "Webhooks", spec §14).
const (
	DefaultTimeout      = 15 * time.Second
	DefaultWorkers      = 16
	DefaultPollInterval = time.Second
	// leaseSlack is how much longer than the request timeout a claim is
	// held: a live owner records its result well within it.
	leaseSlack = 45 * time.Second
	// DisableAfter is how long an endpoint may fail without a success in
	// between before it is disabled.
	DisableAfter = 5 * 24 * time.Hour
)

// DefaultSchedule is the wait before each retry: the first attempt is made
// at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.
var DefaultSchedule = []time.Duration{
	5 * time.Second, 5 * time.Minute, 30 * time.Minute,
	2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour,
}

// Targets tells where a workspace's events go (webhook.Service).
type Targets interface {
	// DeliveryTargets returns the enabled endpoints whose filterTypes
	// match eventType; no targets when advanced webhooks are off.
	DeliveryTargets(ctx context.Context, workspaceID, eventType string) (webhook.Config, []webhook.DeliveryTarget, error)
	// DeliveryTarget returns one endpoint, webhook.ErrNotFound when deleted.
	DeliveryTarget(ctx context.Context, workspaceID, endpointID string) (webhook.Config, webhook.DeliveryTarget, error)
	DisableEndpoint(ctx context.Context, workspaceID, endpointID, reason string) error
}

// Options tune the Service; zero fields take the defaults.
type Options struct {
	// AllowPrivateTargets lets deliveries reach loopback, private and
	// link-local addresses (tests, on-premises receivers). Off, such
	// targets are refused at connection time, after DNS resolution.
	AllowPrivateTargets bool
	Workers             int           // concurrent deliveries per replica
	Timeout             time.Duration // per request, including reading the response
	Schedule            []time.Duration
	// Lease is how long a claimed attempt belongs to its worker; after it
	// an attempt without a result counts as interrupted (default, and
	// whenever it is not longer than Timeout: Timeout+45s).
	Lease  time.Duration
	Now    func() time.Time
	Logger *slog.Logger

	// PollInterval is how often due messages are looked for when nothing
	// wakes the workers (new events do).
	PollInterval time.Duration
	// ConsumerName names this replica in the consumer group (default: host
	// name, process id and a random suffix).
	ConsumerName string
	// Consumer tunes the event consumer (tests make it fast).
	Consumer events.Options
}

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if len(o.Schedule) == 0 {
		o.Schedule = DefaultSchedule
	}
	if o.Lease <= o.Timeout { // a lease must outlast the request it covers
		o.Lease = o.Timeout + leaseSlack
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.PollInterval <= 0 {
		o.PollInterval = DefaultPollInterval
	}
	if o.ConsumerName == "" {
		host, _ := os.Hostname()
		o.ConsumerName = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), rand.Text()[:8])
	}
	return o
}

// Service delivers webhook messages.
type Service struct {
	targets Targets
	opts    Options
	store   *store
	client  *http.Client
	limiter *rateLimiter
	health  *health
	logger  *slog.Logger
	wake    chan struct{} // new messages: look for due work now
	// finished holds messages archived but still queued (dispatch.go).
	finished idSet
}

// NewService returns a delivery service over db. Call EnsureIndexes, then
// Run.
func NewService(db *mongo.Database, targets Targets, opts Options) *Service {
	opts = opts.withDefaults()
	st := newStore(db)
	s := &Service{
		targets: targets,
		opts:    opts,
		store:   st,
		client:  newClient(opts.AllowPrivateTargets),
		limiter: newRateLimiter(),
		logger:  opts.Logger.With("component", "webhook-delivery"),
		wake:    make(chan struct{}, 1),
	}
	s.health = &health{store: st, targets: targets, now: opts.Now, logger: s.logger}
	return s
}

// EnsureIndexes creates the indexes; safe at every start.
func (s *Service) EnsureIndexes(ctx context.Context) error { return s.store.ensureIndexes(ctx) }

// Run consumes streams and delivers messages until ctx ends. Attempts in
// flight are finished and recorded before it returns (their requests are
// bounded by Timeout); unacknowledged events and queued messages wait in
// Redis and the store for the next start.
func (s *Service) Run(ctx context.Context, rdb *redis.Client, streams []string) error {
	if rdb == nil || len(streams) == 0 {
		return errors.New("delivery: Run needs a redis client and at least one stream")
	}
	consumer := events.NewConsumer(rdb, ConsumerGroup, s.opts.ConsumerName, streams, s.ingest, s.logger).
		WithOptions(s.opts.Consumer)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := consumer.Run(ctx); err != nil {
			s.logger.ErrorContext(ctx, "event consumer stopped", "error", err)
		}
	})
	s.dispatch(ctx)
	wg.Wait()
	return nil
}

// maxAttempts is the first attempt plus one per schedule step.
func (s *Service) maxAttempts() int { return len(s.opts.Schedule) + 1 }

func (s *Service) now() time.Time { return s.opts.Now().UTC() }

// signal wakes the dispatcher without blocking.
func (s *Service) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
