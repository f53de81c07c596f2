package memory

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Operation states.
const (
	OperationRunning   = "running"
	OperationSucceeded = "succeeded"
	OperationFailed    = "failed"
)

// Operation is the progress of a background re-embedding (what
// /v2/memory/index/status reports).
type Operation struct {
	Kind          string `json:"kind"` // "reembed"
	Model         string `json:"model"`
	PreviousModel string `json:"previousModel"`
	State         string `json:"state"`
	Done          int64  `json:"done"`
	Total         int64  `json:"total"`
	StartedAt     int64  `json:"startedAt"`
	FinishedAt    int64  `json:"finishedAt,omitempty"`
	Error         string `json:"error,omitempty"`
	// ServingModel is the model whose vectors search uses meanwhile (""
	// while only the lexical index serves).
	ServingModel string `json:"servingModel"`
}

// reembedMargin re-indexes judgments written shortly before the pass
// started: a write racing the pass's read may carry an older text.
const reembedMargin = time.Minute

// IndexStatus is the serving model and the last (or running) re-embedding
// (deployment-wide: the indexes serve every workspace).
type IndexStatus struct {
	Model     string     `json:"model"`
	Operation *Operation `json:"operation"`
}

// Status reports the serving model ("" while only the lexical index
// serves) and re-embedding progress.
func (s *Service) Status() IndexStatus {
	st := IndexStatus{Operation: s.operation()}
	if sp := s.serving(); sp != nil {
		st.Model = sp.Model
	}
	return st
}

// progress is the live state of a running re-embedding.
type progress struct {
	op   Operation
	done atomic.Int64
}

func (s *Service) operation() *Operation {
	p := s.running.Load()
	if p == nil {
		return nil
	}
	op := p.op
	if op.State == OperationRunning {
		op.Done = p.done.Load()
	}
	if sp := s.serving(); sp != nil {
		op.ServingModel = sp.Model
	}
	return &op
}

// Reembed builds target, a new model's space, from the store of record
// while the serving space keeps answering: new judgments are written to
// both meanwhile, every stored one is embedded into target, judgments
// written since the pass began are swept again into both, and then
// target becomes the serving space. done is called with the outcome (to
// record it and drop the old space). It returns when the work is over.
func (s *Service) Reembed(ctx context.Context, target *VectorSpace, done func(error)) {
	prev := ""
	if sp := s.serving(); sp != nil {
		prev = sp.Model
	}
	p := &progress{op: Operation{Kind: "reembed", Model: target.Model, PreviousModel: prev,
		State: OperationRunning, StartedAt: s.Now().UnixMilli()}}
	s.running.Store(p)
	set := *s.spaces.Load()
	set.building = target
	s.spaces.Store(&set)
	err := s.reembed(ctx, target, p)
	final := p.op
	final.Done, final.FinishedAt, final.State = p.done.Load(), s.Now().UnixMilli(), OperationSucceeded
	set = *s.spaces.Load()
	if err != nil {
		final.State, final.Error = OperationFailed, err.Error()
		set.building = nil
	} else {
		set.serving, set.building = target, nil
	}
	s.spaces.Store(&set)
	s.running.Store(&progress{op: final})
	if done != nil {
		done(err)
	}
}

func (s *Service) reembed(ctx context.Context, target *VectorSpace, p *progress) error {
	total, err := s.Store.CountAll(ctx)
	if err != nil {
		return err
	}
	p.op.Total = total
	started := s.Now()
	err = s.Store.Each(ctx, sweepBatch, func(batch []Stored) error {
		if err := embedInto(ctx, target, batch); err != nil {
			return err
		}
		p.done.Add(int64(len(batch)))
		return nil
	})
	if err != nil {
		return fmt.Errorf("re-embed with %s: %w", target.Model, err)
	}
	if _, err := s.Reindex(ctx, max(started.Add(-reembedMargin).UnixMilli(), 1)); err != nil {
		return fmt.Errorf("re-embed with %s: catching up: %w", target.Model, err)
	}
	return nil
}
