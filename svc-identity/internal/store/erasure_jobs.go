package store

import (
	"context"
	"fmt"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/svc-identity/internal/erasure"
)

// ErasureJobsCollection holds GDPR erasure jobs.
const ErasureJobsCollection = "erasurejobs"

type erasureJobRecord struct {
	ID              string   `bson:"_id"`
	WorkspaceID     string   `bson:"workspaceId"`
	UserIDs         []string `bson:"userIds"`
	OrganizationIDs []string `bson:"organizationIds"`
	Tasks           []string `bson:"tasks"`
	Pending         []string `bson:"pending"`
	Done            bool     `bson:"done"`
	CreatedAt       int64    `bson:"createdAt"`
	LastDoneAt      int64    `bson:"lastDoneAt"`
}

func (r erasureJobRecord) domain() erasure.Job {
	return erasure.Job{ID: r.ID, WorkspaceID: r.WorkspaceID, UserIDs: r.UserIDs, OrganizationIDs: r.OrganizationIDs,
		Tasks: r.Tasks, Pending: r.Pending, CreatedAt: r.CreatedAt, LastDoneAt: r.LastDoneAt}
}

// ErasureJobs implements erasure.Store. Job ids embed the workspace hash,
// and every read also filters on the workspace.
type ErasureJobs struct{ coll *mongo.Collection }

// NewErasureJobs returns the job store of db.
func NewErasureJobs(db *mongo.Database) *ErasureJobs {
	return &ErasureJobs{coll: db.Collection(ErasureJobsCollection)}
}

// SaveJob implements erasure.Store.
func (s *ErasureJobs) SaveJob(ctx context.Context, j erasure.Job) error {
	_, err := upsert(ctx, s.coll, bson.M{"_id": j.ID}, bson.M{
		"$set": bson.M{"workspaceId": j.WorkspaceID, "userIds": j.UserIDs, "organizationIds": nonNilStrings(j.OrganizationIDs),
			"tasks": j.Tasks, "pending": j.Pending, "done": len(j.Pending) == 0},
		"$setOnInsert": bson.M{"createdAt": j.CreatedAt, "lastDoneAt": int64(0)},
	})
	return err
}

// GetJob implements erasure.Store.
func (s *ErasureJobs) GetJob(ctx context.Context, ws, id string) (erasure.Job, error) {
	var r erasureJobRecord
	err := s.coll.FindOne(ctx, bson.M{"_id": id}).Decode(&r)
	if err == mongo.ErrNoDocuments || (err == nil && r.WorkspaceID != ws) {
		return erasure.Job{}, erasure.ErrNotFound
	}
	if err != nil {
		return erasure.Job{}, fmt.Errorf("read erasure job: %w", err)
	}
	return r.domain(), nil
}

// PendingJobs implements erasure.Store.
func (s *ErasureJobs) PendingJobs(ctx context.Context, limit int) ([]erasure.Job, error) {
	recs, err := findAll[erasureJobRecord](ctx, s.coll, bson.M{"done": false},
		options.Find().SetSort(bson.D{{Key: "createdAt", Value: 1}}).SetLimit(int64(limit)))
	if err != nil {
		return nil, err
	}
	out := make([]erasure.Job, len(recs))
	for i, r := range recs {
		out[i] = r.domain()
	}
	return out, nil
}

// TaskDone implements erasure.Store: read, drop the service, write back
// (the worker is the only writer of a started job's pending list).
func (s *ErasureJobs) TaskDone(ctx context.Context, ws, id, service string, ms int64) error {
	j, err := s.GetJob(ctx, ws, id)
	if err != nil {
		return err
	}
	pending := slices.DeleteFunc(slices.Clone(j.Pending), func(p string) bool { return p == service })
	_, err = updateOne(ctx, s.coll, bson.M{"_id": id}, bson.M{"$set": bson.M{
		"pending": pending, "done": len(pending) == 0, "lastDoneAt": ms,
	}})
	return err
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
