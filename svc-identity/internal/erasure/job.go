// Package erasure runs GDPR erasure (/v2/users/data/delete) as a tracked
// job: each service erases its own data when the job calls its
// /internal/userdata/erase route (identity erases its own in process). The
// job is stored before the call answers, every service's task is marked
// done only after that service answered, and a worker retries what is
// pending, so the job resumes after a crash and every step is idempotent.
package erasure

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
)

// Job is one erasure request and what is left of it.
type Job struct {
	ID              string
	WorkspaceID     string
	UserIDs         []string
	OrganizationIDs []string
	Tasks           []string // every service the job covers
	Pending         []string // services not yet done
	CreatedAt       int64    // epoch ms
	LastDoneAt      int64    // epoch ms of the last task done; 0 = none
}

// ErrNotFound is the store's answer for an unknown job.
var ErrNotFound = errors.New("erasure: job not found")

// Store keeps jobs.
type Store interface {
	// SaveJob creates the job or, when it exists, makes every task pending
	// again (a repeated request erases what appeared since).
	SaveJob(ctx context.Context, j Job) error
	GetJob(ctx context.Context, ws, id string) (Job, error)
	// PendingJobs lists jobs with a task left, oldest first.
	PendingJobs(ctx context.Context, limit int) ([]Job, error)
	// TaskDone removes service from the job's pending tasks at ms.
	TaskDone(ctx context.Context, ws, id, service string, ms int64) error
}

// Eraser erases users' data in one service.
type Eraser interface {
	Erase(ctx context.Context, ws string, userIDs []string) error
}

// jobID is derived from the workspace and the set of users, so the same
// request names the same job (idempotent) and jobs of different
// workspaces never collide.
func jobID(ws string, userIDs []string) string {
	ids := slices.Clone(userIDs)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	sum := sha256.Sum256([]byte(ws + "\x00" + strings.Join(ids, "\x00")))
	return "erase_" + hex.EncodeToString(sum[:12])
}
