package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// feedChunk is how many feeds one insert command starts: a notification
// for 1,000 users who have no feed yet is eight inserts, not 2,000 writes.
const feedChunk = 250

// startFeeds gives every user of users who has no feed yet one whose
// first entry (sequence number 1) is notification id: per feedChunk
// users one insert of heads and one of first pages. A head that exists
// already (the user has a feed, or a concurrent writer started it) fails
// its insert alone; those users are returned in existing, to be appended
// to one by one.
//
// Heads go first: an inserted head is the claim on sequence number 1
// (another writer's $inc then gets 2), so the page insert can only meet a
// page another writer started for a later entry, and then it sets its
// entry in that page instead.
func (m *Mongo) startFeeds(ctx context.Context, ws, orgID, id string, users []string) (refs []feedRef, existing []string, err error) {
	for chunk := range slices.Chunk(users, feedChunk) {
		started, had, err := m.startFeedChunk(ctx, ws, orgID, id, chunk)
		if err != nil {
			return nil, nil, err
		}
		refs, existing = append(refs, started...), append(existing, had...)
	}
	return refs, existing, nil
}

func (m *Mongo) startFeedChunk(ctx context.Context, ws, orgID, id string, users []string) (refs []feedRef, existing []string, err error) {
	heads := make([]any, len(users))
	for i, u := range users {
		heads[i] = feedHeadDoc{ID: feedHeadKey(ws, orgID, u), WorkspaceID: ws, OrganizationID: orgID, UserID: u, Seq: 1}
	}
	had, err := insertNew(ctx, m.feedHeads, heads)
	if err != nil {
		return nil, nil, fmt.Errorf("start feeds: %w", err)
	}
	var started []string
	for i, u := range users {
		if had[i] {
			existing = append(existing, u)
		} else {
			started = append(started, u)
		}
	}
	pages := make([]any, len(started))
	for i, u := range started {
		pages[i] = bson.D{
			{Key: "_id", Value: feedPageKey(ws, orgID, u, 1)},
			{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: orgID}, {Key: "userId", Value: u},
			{Key: "entries", Value: bson.D{{Key: "1", Value: id}}},
		}
	}
	taken, err := insertNew(ctx, m.feedPages, pages)
	if err != nil {
		return nil, nil, fmt.Errorf("start feeds: %w", err)
	}
	for i, u := range started {
		if taken[i] {
			unlock := m.feedLocks.Lock(feedHeadKey(ws, orgID, u))
			err := m.writeFeedEntry(ctx, ws, orgID, u, 1, id)
			unlock()
			if err != nil {
				return nil, nil, err
			}
		}
		refs = append(refs, feedRef{User: u, Seq: 1})
	}
	return refs, existing, nil
}

// writeFeedEntry files id under sequence number seq of the user's feed,
// creating the page if need be. The caller holds the user's lock (see
// appendToFeed).
func (m *Mongo) writeFeedEntry(ctx context.Context, ws, orgID, userID string, seq int64, id string) error {
	owner := bson.D{{Key: "workspaceId", Value: ws}, {Key: "organizationId", Value: orgID}, {Key: "userId", Value: userID}}
	entry := bson.D{{Key: "entries." + strconv.FormatInt(seq, 10), Value: id}}
	err := upsertRetry(func() error {
		_, err := m.feedPages.UpdateOne(ctx, bson.D{{Key: "_id", Value: feedPageKey(ws, orgID, userID, seq)}},
			bson.D{{Key: "$set", Value: entry}, {Key: "$setOnInsert", Value: owner}}, options.UpdateOne().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("write feed entry: %w", err)
	}
	return nil
}

// insertNew inserts docs with one unordered command; had[i] reports that
// docs[i] was not inserted because its _id exists.
func insertNew(ctx context.Context, coll *mongo.Collection, docs []any) (had []bool, err error) {
	had = make([]bool, len(docs))
	if len(docs) == 0 {
		return had, nil
	}
	_, err = coll.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	if err == nil {
		return had, nil
	}
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || bwe.WriteConcernError != nil {
		return nil, fmt.Errorf("insert into %s: %w", coll.Name(), err)
	}
	for _, we := range bwe.WriteErrors {
		if !mongodb.IsDuplicateKey(we.WriteError) {
			return nil, fmt.Errorf("insert into %s: %w", coll.Name(), err)
		}
		had[we.Index] = true
	}
	return had, nil
}
