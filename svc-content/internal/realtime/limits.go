package realtime

import (
	"context"
	"fmt"
	"sync"
)

// SessionCounter counts open document sessions per workspace and per
// document against the limits.
type SessionCounter interface {
	// Acquire counts one more session of key, or returns a *LimitError
	// when the workspace or the document is full. release undoes it.
	Acquire(ctx context.Context, key DocKey, maxWorkspace, maxDocument int) (release func(), err error)
}

// LimitError is a refused session.
type LimitError struct{ Reason string }

func (e *LimitError) Error() string { return e.Reason }

func limitReached(what string, max int) *LimitError {
	return &LimitError{Reason: fmt.Sprintf("%s connection limit reached (%d sessions)", what, max)}
}

// localCounter counts in process: right for a single replica. Documents
// are counted by their DocKey, whose strings the sessions hold already:
// a key string made per connection (DocKey.id) stayed with its release.
type localCounter struct {
	mu     sync.Mutex
	perWS  map[string]int
	perDoc map[DocKey]int
}

func newLocalCounter() *localCounter {
	return &localCounter{perWS: map[string]int{}, perDoc: map[DocKey]int{}}
}

func (c *localCounter) Acquire(_ context.Context, key DocKey, maxWS, maxDoc int) (func(), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.perWS[key.Workspace] >= maxWS {
		return nil, limitReached("workspace", maxWS)
	}
	if c.perDoc[key] >= maxDoc {
		return nil, limitReached("document", maxDoc)
	}
	c.perWS[key.Workspace]++
	c.perDoc[key]++
	var once sync.Once
	return func() {
		once.Do(func() {
			c.mu.Lock()
			defer c.mu.Unlock()
			if c.perWS[key.Workspace]--; c.perWS[key.Workspace] == 0 {
				delete(c.perWS, key.Workspace)
			}
			if c.perDoc[key]--; c.perDoc[key] == 0 {
				delete(c.perDoc, key)
			}
		})
	}, nil
}
