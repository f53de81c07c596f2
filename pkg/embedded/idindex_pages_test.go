package embedded

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// maxPagesPerInsert bounds the pages a one-document insert writes to the
// write-ahead log once the _id lookups are indexed: the table's leaf, one
// _id index's leaf and a share of the splits (measured: 2.35; with a
// second _id index beside FerretDB's, 3.68).
const maxPagesPerInsert = 2.6

// TestPagesWrittenPerInsert counts the WAL frames (pages) that inserts of
// documents with hash-like _ids (as the CRDT log's) write: each commit
// writes every page it changed, one per index among them.
func TestPagesWrittenPerInsert(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "app.sqlite")
	withFerret(t, dir, func(c *mongo.Collection) {
		ctx := t.Context()
		insert := func(i int) {
			h := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
			if _, err := c.InsertOne(ctx, doc{hex.EncodeToString(h[:16]) + ":l000000000001", "a@example.com"}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 300 { // a table and indexes of more than one page
			insert(i)
		}
		waitIDIndexSwept(t, file)
		db := openSQLite(t, file, "rw")
		var busy, frames, done int
		if err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &frames, &done); err != nil || busy != 0 {
			t.Fatalf("checkpoint: busy %d, %v", busy, err)
		}
		const n = 200
		for i := range n {
			insert(1000 + i)
		}
		if err := db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &done); err != nil {
			t.Fatal(err)
		}
		perInsert := float64(frames) / n
		t.Logf("%d inserts wrote %d pages: %.2f per insert", n, frames, perInsert)
		if perInsert > maxPagesPerInsert {
			t.Fatalf("%.2f pages written per insert, want at most %.1f", perInsert, maxPagesPerInsert)
		}
	})
}
