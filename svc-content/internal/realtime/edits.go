package realtime

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// EditPublisher publishes the effect of realtime edits of one editor: the
// crdt webhook event and, where activities are on, an activity record.
type EditPublisher interface {
	PublishEdit(ctx context.Context, key DocKey, by Author) error
}

// Debouncer is an EditSink that publishes an editor's edits once it has
// been quiet for a while (the webhook's "5 s debounce"), and at least once
// every maxWait while edits keep coming; lastUpdatedBy and sessionId are
// those of the last edit.
type Debouncer struct {
	pub     EditPublisher
	quiet   time.Duration
	maxWait time.Duration
	logger  *slog.Logger

	mu      sync.Mutex
	pending map[DocKey]*pendingEdit
	wg      sync.WaitGroup
	// slots bounds the publishes under way: each renders its document
	// (read from the store when it is not loaded here), and the editors
	// of a busy replica fall due together.
	slots chan struct{}
}

// maxConcurrentPublishes is how many edit events a replica publishes at
// once; the others wait for a slot.
const maxConcurrentPublishes = 4

type pendingEdit struct {
	key   DocKey
	by    Author
	first time.Time
	timer *time.Timer
}

// debounceMaxWaitFactor: a busy editor is published at least every
// quiet × this.
const debounceMaxWaitFactor = 6

// NewDebouncer returns a debouncer publishing through pub.
func NewDebouncer(pub EditPublisher, quiet time.Duration, logger *slog.Logger) *Debouncer {
	if logger == nil {
		logger = slog.Default()
	}
	return &Debouncer{pub: pub, quiet: quiet, maxWait: quiet * debounceMaxWaitFactor, logger: logger, pending: map[DocKey]*pendingEdit{},
		slots: make(chan struct{}, maxConcurrentPublishes)}
}

// Edited implements EditSink.
func (d *Debouncer) Edited(key DocKey, authors []Author) {
	if len(authors) == 0 {
		return
	}
	by := authors[len(authors)-1]
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.pending[key]
	if !ok {
		p = &pendingEdit{key: key, first: time.Now()}
		d.pending[key] = p
		p.timer = time.AfterFunc(d.quiet, func() { d.fire(key) })
	} else if time.Since(p.first) < d.maxWait {
		p.timer.Reset(d.quiet)
	}
	p.by = by
}

func (d *Debouncer) fire(key DocKey) {
	d.mu.Lock()
	p, ok := d.pending[key]
	delete(d.pending, key)
	if ok {
		d.wg.Add(1)
	}
	d.mu.Unlock()
	if !ok {
		return
	}
	defer d.wg.Done()
	d.slots <- struct{}{}
	defer func() { <-d.slots }()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := d.pub.PublishEdit(ctx, p.key, p.by); err != nil {
		d.logger.Warn("realtime: publishing an edit event failed", "error", err)
	}
}

// Flush publishes what is pending now (shutdown) and waits for it.
func (d *Debouncer) Flush() {
	d.mu.Lock()
	keys := make([]DocKey, 0, len(d.pending))
	for key, p := range d.pending {
		p.timer.Stop()
		keys = append(keys, key)
	}
	d.mu.Unlock()
	for _, key := range keys {
		d.fire(key)
	}
	d.wg.Wait()
}
