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
// exist already, per appendChunk users with three store commands: one
// update of the heads ($inc of seq and a mark of this call), one read of
// them back, one update of the pages; feedWriters chunks at a time, under
// the locks of all the users. Update statements are multi and address one
// exact _id: FerretDB v1 answers those from its index and closes their
// cursors (single-document statements keep theirs open to the end of the
// command and hang it past 100). Two commands per feed were 1,200 round
// trips for 600 feeds; FerretDB still writes each document on its own, so
// there it takes as long as before (3 s for 1,000 feeds, load 6), on
// MongoDB it saves the round trips.
//
// A head whose mark is not this call's (deleted meanwhile, or another
// writer moved it since) and a page that does not exist yet are done one
// user at a time, as appendToFeed does. Entries count only once the
// notification lists them, so a failure part way leaves nothing visible.
func (m *Mongo) appendToExisting(ctx context.Context, ws, orgID, id string, users []string) ([]feedRef, error) {
	keys := make([]string, len(users))
	for i, u := range users {
		keys[i] = feedHeadKey(ws, orgID, u)
	}
	chunks := slices.Collect(slices.Chunk(users, appendChunk))
	refs := make([][]feedRef, len(chunks))
	missed := make([][]string, len(chunks))
	unlock := m.feedLocks.LockAll(keys)
	err := eachFeed(len(chunks), func(i int) error {
		first := i * appendChunk
		var err error
		refs[i], missed[i], err = m.appendLocked(ctx, ws, orgID, id, chunks[i], keys[first:first+len(chunks[i])])
		return err
	})
	unlock()
	if err != nil {
		return nil, fmt.Errorf("append to feed: %w", err)
	}
	all := slices.Concat(refs...)
	for _, u := range slices.Concat(missed...) {
		seq, err := m.appendToFeed(ctx, ws, orgID, u, id)
		if err != nil {
			return nil, fmt.Errorf("append to feed: %w", err)
		}
		all = append(all, feedRef{User: u, Seq: seq})
	}
	return all, nil
}

// appendChunk is how many feeds one command of appendToExisting writes;
// feedWriters such commands run at once.
const appendChunk = 125

// appendLocked appends to one chunk under the users' locks; missed are
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
