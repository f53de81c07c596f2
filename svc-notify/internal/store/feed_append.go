package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// appendToExisting files id at the head of the feeds of users, which
// exist already, per feedChunk users with three store commands: one
// update of the heads ($inc of seq and a mark of this call), one read of
// them back, one update of the pages. Update statements are multi and
// address one exact _id: FerretDB v1 answers those from its index and
// closes their cursors (single-document statements keep theirs open to
// the end of the command and hang it past 100). One after another, two
// commands per feed took seconds for 1,000 feeds.
//
// A head whose mark is not this call's (deleted meanwhile, or another
// writer moved it since) and a page that does not exist yet are done one
// user at a time, as appendToFeed does. Entries count only once the
// notification lists them, so a failure part way leaves nothing visible.
func (m *Mongo) appendToExisting(ctx context.Context, ws, orgID, id string, users []string) ([]feedRef, error) {
	var refs []feedRef
	for chunk := range slices.Chunk(users, feedChunk) {
		got, err := m.appendChunk(ctx, ws, orgID, id, chunk)
		if err != nil {
			return nil, fmt.Errorf("append to feed: %w", err)
		}
		refs = append(refs, got...)
	}
	return refs, nil
}

func (m *Mongo) appendChunk(ctx context.Context, ws, orgID, id string, users []string) ([]feedRef, error) {
	keys := make([]string, len(users))
	for i, u := range users {
		keys[i] = feedHeadKey(ws, orgID, u)
	}
	unlock := m.feedLocks.lockAll(keys)
	refs, missed, err := m.appendLocked(ctx, ws, orgID, id, users, keys)
	unlock()
	if err != nil {
		return nil, err
	}
	for _, u := range missed {
		seq, err := m.appendToFeed(ctx, ws, orgID, u, id)
		if err != nil {
			return nil, err
		}
		refs = append(refs, feedRef{User: u, Seq: seq})
	}
	return refs, nil
}

// appendLocked is appendChunk's work under the users' locks; missed are
// the users whose head it could not claim a sequence number from.
func (m *Mongo) appendLocked(ctx context.Context, ws, orgID, id string, users, keys []string) (refs []feedRef, missed []string, err error) {
	mark := newRev()
	claims := make([]mongo.WriteModel, len(keys))
	for i, key := range keys {
		claims[i] = mongo.NewUpdateManyModel().SetFilter(bson.D{{Key: "_id", Value: key}}).
			SetUpdate(bson.D{{Key: "$inc", Value: bson.D{{Key: "seq", Value: int64(1)}}}, {Key: "$set", Value: bson.D{{Key: "mark", Value: mark}}}})
	}
	if _, err := m.feedHeads.BulkWrite(ctx, claims, options.BulkWrite().SetOrdered(false)); err != nil {
		return nil, nil, fmt.Errorf("claim feed heads: %w", err)
	}
	heads, err := mongodb.FindByIDs[feedHeadMark](ctx, m.feedHeads, keys, nil, m.pointReads)
	if err != nil {
		return nil, nil, err
	}
	seqs := make(map[string]int64, len(heads))
	for _, h := range heads {
		if h.Mark == mark {
			seqs[h.ID] = h.Seq
		}
	}
	for i, u := range users {
		if seq, ok := seqs[keys[i]]; ok {
			refs = append(refs, feedRef{User: u, Seq: seq})
		} else {
			missed = append(missed, u)
		}
	}
	return refs, missed, m.writeEntries(ctx, ws, orgID, id, refs)
}

// feedHeadMark is a head with the mark of the call that last claimed a
// sequence number from it in bulk.
type feedHeadMark struct {
	ID   string `bson:"_id"`
	Seq  int64  `bson:"seq"`
	Mark string `bson:"mark"`
}

// writeEntries files id under each ref with one update of existing pages.
// Entries that start a page, and all of them if a page they expected is
// missing (left unwritten by a crash), are upserted one by one. The
// caller holds the users' locks.
func (m *Mongo) writeEntries(ctx context.Context, ws, orgID, id string, refs []feedRef) error {
	var inPage, first []feedRef
	for _, r := range refs {
		if r.Seq%feedPageSize == 0 {
			first = append(first, r)
		} else {
			inPage = append(inPage, r)
		}
	}
	if len(inPage) > 0 {
		sets := make([]mongo.WriteModel, len(inPage))
		for i, r := range inPage {
			sets[i] = mongo.NewUpdateManyModel().SetFilter(bson.D{{Key: "_id", Value: feedPageKey(ws, orgID, r.User, r.Seq)}}).
				SetUpdate(bson.D{{Key: "$set", Value: bson.D{{Key: "entries." + strconv.FormatInt(r.Seq, 10), Value: id}}}})
		}
		res, err := m.feedPages.BulkWrite(ctx, sets, options.BulkWrite().SetOrdered(false))
		if err != nil {
			return fmt.Errorf("write feed entries: %w", err)
		}
		if res.MatchedCount < int64(len(inPage)) {
			first = append(first, inPage...)
		}
	}
	for _, r := range first {
		if err := m.writeFeedEntry(ctx, ws, orgID, r.User, r.Seq, id); err != nil {
			return err
		}
	}
	return nil
}
