// Package eventstest holds test support for code that publishes events.
package eventstest

import (
	"context"
	"sync"

	"github.com/opencollab/backend/pkg/events"
)

// Recorder is a publisher that keeps every event it is given, in order,
// so a test can assert what the code under test published. It is safe for
// concurrent use: services publish from background goroutines.
// The zero value is ready to use.
type Recorder struct {
	mu     sync.Mutex
	events []events.Event
}

// Publish records evs; it never fails.
func (r *Recorder) Publish(_ context.Context, evs ...events.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, evs...)
	return nil
}

// Events returns a copy of the events published so far, so the caller
// may read it while publishing goes on.
func (r *Recorder) Events() []events.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]events.Event(nil), r.events...)
}

// Types returns the types of the events published so far, in order.
func (r *Recorder) Types() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.events))
	for i, e := range r.events {
		out[i] = e.Type
	}
	return out
}

// Reset forgets the events published so far.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = nil
}
