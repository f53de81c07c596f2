package store

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

const stateColl = "memory_state"

// vectorStateID is the one state document: which embedding model the
// complete vector index was built with.
const vectorStateID = "vectors"

// VectorState records the model of the last complete vector index, so a
// start with another configured model knows to re-embed, and which
// model's vectors can keep serving meanwhile.
type VectorState struct {
	Model string `bson:"model"` // the model tag, e.g. "builtin-hash-v2/256"
	// Name and Dim are the model's own name and vector length; BaseURL the
	// endpoint it was served by ("" for the built-in embedder). No key is
	// kept.
	Name      string `bson:"name"`
	Dim       int    `bson:"dim"`
	BaseURL   string `bson:"baseUrl"`
	UpdatedAt int64  `bson:"updatedAt"`
}

// States keeps service state documents.
type States struct{ coll *mongo.Collection }

// NewStates returns the state store over db.
func NewStates(db *mongo.Database) *States { return &States{coll: db.Collection(stateColl)} }

// VectorState returns the recorded state; found is false before the first
// complete index.
func (s *States) VectorState(ctx context.Context) (st VectorState, found bool, err error) {
	err = s.coll.FindOne(ctx, bson.D{{Key: "_id", Value: vectorStateID}}).Decode(&st)
	if mongodb.IsNotFound(err) {
		return VectorState{}, false, nil
	}
	if err != nil {
		return VectorState{}, false, fmt.Errorf("read vector state: %w", err)
	}
	return st, true, nil
}

// SaveVectorState records st.
func (s *States) SaveVectorState(ctx context.Context, st VectorState) error {
	st.UpdatedAt = time.Now().UnixMilli()
	_, err := s.coll.ReplaceOne(ctx, bson.D{{Key: "_id", Value: vectorStateID}}, st, options.Replace().SetUpsert(true))
	if err != nil {
		return fmt.Errorf("save vector state: %w", err)
	}
	return nil
}
