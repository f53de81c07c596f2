package crdt

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/opencollab/backend/pkg/mongodb"
)

// logCollection holds the updates appended to editors since their latest
// state, one document per update, keyed logSlot(editor, seq) with seq 1,
// 2, ... without gaps. An entry is deleted only after a state that
// contains it was stored (compact.go); until then every read merges it,
// and merging it twice changes nothing (Yjs updates are idempotent).
// Entries of the previous writer (ObjectID _id, no seq) are read by query
// until the editor's next compaction merges them (legacylog.go).
const logCollection = "crdt_updates"

// logDoc is the stored shape of a LogEntry.
type logDoc struct {
	ID             any       `bson:"_id"`
	WorkspaceID    string    `bson:"workspaceId"`
	OrganizationID string    `bson:"organizationId"`
	DocumentID     string    `bson:"documentId"`
	EditorID       string    `bson:"editorId"`
	Seq            int64     `bson:"seq,omitempty"`
	Update         []byte    `bson:"update"`
	At             time.Time `bson:"at"`
	UserID         string    `bson:"userId,omitempty"`
}

func (d logDoc) entry() LogEntry {
	e := LogEntry{Editor: Editor{d.OrganizationID, d.DocumentID, d.EditorID}, Seq: d.Seq, Update: d.Update, At: d.At.UTC(), UserID: d.UserID}
	switch id := d.ID.(type) {
	case string:
		e.ID = id
	case bson.ObjectID:
		e.ID = id.Hex()
	}
	return e
}

// maxAppendRounds bounds how often AppendLog retries an entry whose
// sequence number another replica took or a compaction passed.
const maxAppendRounds = 8

// AppendLog inserts each entry at its editor's next sequence number, all
// in one insertMany; an entry whose number was taken (another replica
// appended) is retried at the next one. Then each is checked against the
// editor's latest state: an entry inserted at a number a compaction had
// already merged and freed (this replica's view was stale) would never be
// read, so it is appended again (merging it twice changes nothing).
func (s *mongoStore) AppendLog(ctx context.Context, entries []WorkspaceEntry) []error {
	errs := make([]error, len(entries))
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = editorKey(e.Workspace, e.Editor)
	}
	defer s.locks.lock(keys)()
	pending := make([]int, len(entries))
	for i := range pending {
		pending[i] = i
	}
	tries := make([]int, len(entries))
	for len(pending) > 0 {
		// One entry per editor per round: the next one takes the sequence
		// number after it, known once it is stored.
		var round, later []int
		inRound := map[string]bool{}
		for _, i := range pending {
			if tries[i] >= maxAppendRounds {
				errs[i] = fmt.Errorf("crdt: the log of editor id %s kept moving; not stored", entries[i].EditorID)
			} else if inRound[keys[i]] {
				later = append(later, i)
			} else {
				inRound[keys[i]] = true
				tries[i]++
				round = append(round, i)
			}
		}
		pending = append(s.appendRound(ctx, entries, keys, round, errs), later...)
		slices.Sort(pending)
	}
	return errs
}

// appendRound inserts the pending entries and returns those to retry.
func (s *mongoStore) appendRound(ctx context.Context, entries []WorkspaceEntry, keys []string, pending []int, errs []error) []int {
	docs := make([]any, 0, len(pending))
	var sent []int
	started := s.now()
	checked := make(map[int]bool, len(pending)) // needs no read-back (trusted hint)
	for _, i := range pending {
		e := entries[i]
		seq, trusted, err := s.nextSeq(ctx, e.Workspace, e.Editor, keys[i])
		if err != nil {
			errs[i] = err
			continue
		}
		entries[i].Seq, checked[i] = seq, trusted
		docs = append(docs, logDoc{
			ID: logSlot(keys[i], seq), WorkspaceID: e.Workspace, OrganizationID: e.OrganizationID, DocumentID: e.DocumentID,
			EditorID: e.EditorID, Seq: seq, Update: e.Update, At: e.At, UserID: e.UserID,
		})
		sent = append(sent, i)
	}
	if len(docs) == 0 {
		return nil
	}
	insertErrs := insertEach(ctx, s.log, docs)
	var retry, stored []int
	for j, i := range sent {
		key, seq := keys[i], entries[i].Seq
		switch err := insertErrs[j]; {
		case mongodb.IsDuplicateKey(err):
			s.hints.update(key, func(h *logHint) { h.next = 0 }) // another replica appended: probe again
			retry = append(retry, i)
		case err != nil:
			errs[i] = err
		case checked[i]:
			s.hints.update(key, func(h *logHint) { h.next, h.confirmed = seq+1, started })
			entries[i].ID = logSlot(key, seq)
		default:
			s.hints.update(key, func(h *logHint) { h.next = seq + 1 })
			stored = append(stored, i)
		}
	}
	readable := make([]bool, len(stored))
	checks := make(chan struct{}, maxConcurrentChecks)
	var wg sync.WaitGroup
	for j, i := range stored {
		checks <- struct{}{}
		wg.Go(func() {
			defer func() { <-checks }()
			e := entries[i]
			readable[j], errs[i] = s.aboveMerged(ctx, e.Workspace, e.Editor, keys[i], e.Seq)
		})
	}
	wg.Wait()
	for j, i := range stored {
		if errs[i] == nil && !readable[j] {
			s.hints.update(keys[i], func(h *logHint) { h.next = 0 })
			retry = append(retry, i)
		} else if errs[i] == nil {
			s.hints.update(keys[i], func(h *logHint) { h.confirmed = started })
			entries[i].ID = logSlot(keys[i], entries[i].Seq)
		}
	}
	return retry
}

// maxConcurrentChecks bounds the reads AppendLog runs at once to check
// where its entries landed.
const maxConcurrentChecks = 8

// insertEach inserts docs in one unordered insertMany; errs[i] is doc i's.
func insertEach(ctx context.Context, c *mongo.Collection, docs []any) []error {
	errs := make([]error, len(docs))
	_, err := c.InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
	var bulk mongo.BulkWriteException
	switch {
	case err == nil:
	case errors.As(err, &bulk) && len(bulk.WriteErrors) > 0 && bulk.WriteConcernError == nil:
		for _, we := range bulk.WriteErrors {
			if we.Index >= 0 && we.Index < len(errs) {
				errs[we.Index] = mongo.WriteException{WriteErrors: []mongo.WriteError{we.WriteError}}
			}
		}
	default:
		for i := range errs {
			errs[i] = err
		}
	}
	return errs
}

// nextSeq is the editor's next free log sequence number: remembered, or
// probed from its latest state's. trusted: it follows an entry this
// replica inserted (and found readable) less than appendTrust ago, so no
// compaction can have freed it (logDeleteLag); a probed number is not
// trusted, as a compaction may have deleted slots since the state read.
func (s *mongoStore) nextSeq(ctx context.Context, ws string, ed Editor, key string) (seq int64, trusted bool, err error) {
	if h, ok := s.hints.get(key); ok && h.next > 0 {
		return h.next, h.trusted(s.now()), nil
	}
	st, err := s.FindState(ctx, ws, ed)
	if err != nil {
		return 0, false, err
	}
	h, _ := s.hints.get(key)
	_, next, err := s.probeLog(ctx, key, max(st.LogSeq, h.next-1)+1)
	if err != nil {
		return 0, false, err
	}
	s.hints.update(key, func(h *logHint) { h.next, h.confirmed = next, time.Time{} })
	return next, false, nil
}

// aboveMerged reports whether seq is above what the editor's latest state
// merged, read after the insert: then no compaction had freed that slot
// (a compaction stores its state before it deletes entries).
func (s *mongoStore) aboveMerged(ctx context.Context, ws string, ed Editor, key string, seq int64) (bool, error) {
	if h, ok := s.hints.get(key); ok && h.fresh(s.now()) && h.merged < seq {
		newer, err := s.hasState(ctx, key, h.version+1)
		if err != nil || !newer {
			return err == nil, err
		}
	}
	st, err := s.FindState(ctx, ws, ed)
	if err != nil {
		return false, err
	}
	return st.LogSeq < seq, nil
}

// DeleteLog deletes the editor's log sequences from up to through and the
// previous writer's entries given, in one delete command of one
// statement per _id (each an index seek on FerretDB, where a filter on
// several ids scans; a round trip per entry made compaction cost a
// command per update).
func (s *mongoStore) DeleteLog(ctx context.Context, ws string, ed Editor, from, through int64, legacy []LogEntry) error {
	key := editorKey(ws, ed)
	var deletes []mongo.WriteModel
	for seq := max(from, 1); seq <= through; seq++ {
		deletes = append(deletes, mongo.NewDeleteOneModel().SetFilter(bson.D{{Key: "_id", Value: logSlot(key, seq)}}))
	}
	for _, e := range legacy {
		if e.Seq != 0 {
			continue
		}
		oid, err := bson.ObjectIDFromHex(e.ID)
		if err != nil {
			return err
		}
		deletes = append(deletes, mongo.NewDeleteOneModel().SetFilter(bson.D{{Key: "_id", Value: oid}}))
	}
	if len(deletes) == 0 {
		return nil
	}
	_, err := s.log.BulkWrite(ctx, deletes, options.BulkWrite().SetOrdered(false))
	return err
}

// SetLogFrom records in the stored state st that its editor's log holds
// no sequence below from.
func (s *mongoStore) SetLogFrom(ctx context.Context, ws string, st State, from int64) error {
	deleted := bson.D{{Key: "$set", Value: bson.D{{Key: "logFrom", Value: from}}}}
	_, err := s.states.UpdateOne(ctx, bson.D{{Key: "_id", Value: stateSlot(editorKey(ws, st.Editor), st.Version)}}, deleted)
	return err
}
