package embedded

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// writeCalls is the process's write system calls so far (write, pwrite,
// writev: /proc/self/io syscw).
func writeCalls(t *testing.T) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skip("no /proc/self/io:", err)
	}
	for line := range bytes.Lines(raw) {
		if v, ok := bytes.CutPrefix(line, []byte("syscw: ")); ok {
			n, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no syscw in /proc/self/io")
	return 0
}

// An insert command's statement journal stays in memory: inserting 50
// documents writes the WAL (two writes per page: frame header, page) and
// the command's reply, and no temporary file. With the journal on disk
// the same inserts took 74 write calls each, 63 without.
func TestInsertsWriteNoStatementJournal(t *testing.T) {
	dir := t.TempDir()
	withFerret(t, dir, func(c *mongo.Collection) {
		ctx := t.Context()
		pad := bytes.Repeat([]byte("x"), 300)
		const rounds, docs = 100, 50
		// The table exists and its index is swept before the count: a
		// sweep rebuilding it mid-count wrote 88.5 calls per insert.
		if _, err := c.InsertOne(ctx, bson.M{"_id": "first", "ws": "ws1"}); err != nil {
			t.Fatal(err)
		}
		waitIDIndexSwept(t, filepath.Join(dir, "app.sqlite"))
		before := writeCalls(t)
		for r := range rounds {
			batch := make([]any, docs)
			for i := range batch {
				batch[i] = bson.M{"_id": fmt.Sprintf("k%06d:%04d", i, r), "ws": "ws1", "update": pad, "seq": r}
			}
			if _, err := c.InsertMany(ctx, batch); err != nil {
				t.Fatal(err)
			}
		}
		perInsert := float64(writeCalls(t)-before) / rounds
		if perInsert > 68 {
			t.Fatalf("%.1f write calls per insert of %d documents, want at most 68 (no statement journal file)", perInsert, docs)
		}
	})
}
