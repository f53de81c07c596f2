package erasure

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

// Service starts jobs, reports them and runs the worker.
type Service struct {
	store   Store
	erasers map[string]Eraser // by service name
	now     func() time.Time
	log     *slog.Logger
	kick    chan struct{}
}

// NewService returns a Service erasing through erasers (service name →
// eraser).
func NewService(store Store, erasers map[string]Eraser, log *slog.Logger) *Service {
	if log == nil {
		log = slog.Default()
	}
	return &Service{store: store, erasers: erasers, now: time.Now, log: log, kick: make(chan struct{}, 1)}
}

// Request is /v2/users/data/delete.
type Request struct {
	UserIDs         []string
	OrganizationIDs []string
}

// Start stores the job (every service pending) and wakes the worker. The
// same users give the same job id.
func (s *Service) Start(ctx context.Context, ws string, req Request) (Job, error) {
	tasks := slices.Sorted(maps.Keys(s.erasers))
	j := Job{
		ID: jobID(ws, req.UserIDs), WorkspaceID: ws, UserIDs: req.UserIDs, OrganizationIDs: req.OrganizationIDs,
		Tasks: tasks, Pending: tasks, CreatedAt: s.now().UnixMilli(),
	}
	if err := s.store.SaveJob(ctx, j); err != nil {
		return Job{}, err
	}
	select {
	case s.kick <- struct{}{}:
	default:
	}
	return j, nil
}

// Status reads a job of the workspace: NOT_FOUND for another's or none.
func (s *Service) Status(ctx context.Context, ws, id string) (Job, error) {
	j, err := s.store.GetJob(ctx, ws, id)
	if errors.Is(err, ErrNotFound) {
		return Job{}, api.Errorf(api.NotFound, "erasure job %s does not exist", id)
	}
	return j, err
}

// Run works on pending jobs until ctx ends: at start (jobs a crash left
// pending), when a job is started, and every interval (retries of tasks
// whose service failed).
func (s *Service) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		s.RunOnce(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.kick:
		}
	}
}

// RunOnce makes one pass over the pending jobs: each pending task is tried
// once; a failure leaves it pending for the next pass.
func (s *Service) RunOnce(ctx context.Context) {
	jobs, err := s.store.PendingJobs(ctx, 100)
	if err != nil {
		s.log.Warn("erasure: listing pending jobs failed", "error", err)
		return
	}
	for _, j := range jobs {
		for _, svc := range j.Pending {
			if err := s.runTask(ctx, j, svc); err != nil {
				s.log.Warn("erasure: task failed; retried later", "job", j.ID, "service", svc, "error", err)
			}
		}
	}
}

func (s *Service) runTask(ctx context.Context, j Job, svc string) error {
	e, ok := s.erasers[svc]
	if !ok {
		return errors.New("no eraser for this service in this deployment")
	}
	if err := e.Erase(ctx, j.WorkspaceID, j.UserIDs); err != nil {
		return err
	}
	return s.store.TaskDone(ctx, j.WorkspaceID, j.ID, svc, s.now().UnixMilli())
}
