package embedded

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/opencollab/backend/pkg/mongodb"
)

// Every write of a document writes one entry per index of its table: a
// collection table keeps one index on _id (FerretDB's unique one, on the
// expression its lookups use), not FerretDB's plus a second one for the
// lookups; a duplicate _id is still refused as a duplicate key. A data
// directory of the earlier version (both indexes) is converted.
func TestOneUniqueIDIndexPerTable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "app.sqlite")
	withFerret(t, dir, func(c *mongo.Collection) { insertAndCheckUnique(t, c, file, "u1") })
	checkOneIDIndex(t, file)

	restoreEarlierIndexes(t, file)
	if got := idIndexesOf(t, file); len(got) != 2 {
		t.Fatalf("the earlier layout has %d _id indexes (%v), want 2", len(got), got)
	}
	withFerret(t, dir, func(c *mongo.Collection) { insertAndCheckUnique(t, c, file, "u2") })
	checkOneIDIndex(t, file)
}

// insertAndCheckUnique inserts a document, waits for the sweeps to leave
// one _id index and checks that a second insert of its _id is refused.
func insertAndCheckUnique(t *testing.T, c *mongo.Collection, file, id string) {
	t.Helper()
	ctx := t.Context()
	if _, err := c.InsertOne(ctx, doc{id, id + "@example.com"}); err != nil {
		t.Fatal(err)
	}
	waitIDIndexSwept(t, file)
	if _, err := c.InsertOne(ctx, doc{id, "other@example.com"}); !mongodb.IsDuplicateKey(err) {
		t.Fatalf("second insert of _id %s: %v, want a duplicate key error", id, err)
	}
}

// waitIDIndexSwept waits (up to ten sweeps) for the sweep to leave the
// collection table of file one _id index that its lookups use. Tests
// that count writes wait for it first: a sweep rebuilding the index
// during the count writes the whole index.
func waitIDIndexSwept(t *testing.T, file string) {
	t.Helper()
	for deadline := time.Now().Add(10 * idIndexSweep); time.Now().Before(deadline); time.Sleep(idIndexSweep / 4) {
		if len(idIndexesOf(t, file)) == 1 && strings.Contains(queryPlan(t, file), "USING INDEX") {
			return
		}
	}
}

// checkOneIDIndex fails unless the collection table of file has exactly
// one index mentioning _id, unique and on the lookups' expression.
func checkOneIDIndex(t *testing.T, file string) {
	t.Helper()
	got := idIndexesOf(t, file)
	if len(got) != 1 || !strings.HasPrefix(got[0], "CREATE UNIQUE INDEX") || !strings.Contains(got[0], ferretIDExpr) {
		t.Fatalf("_id indexes of the collection table: %q, want one unique index on %s", got, ferretIDExpr)
	}
}

// idIndexesOf is the SQL of the indexes on _id of file's only collection
// table.
func idIndexesOf(t *testing.T, file string) []string {
	t.Helper()
	db := openSQLite(t, file, "ro")
	rows, err := db.QueryContext(t.Context(), `
		SELECT sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '%_id%'
		  AND tbl_name NOT LIKE '\_ferretdb\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			t.Fatal(err)
		}
		out = append(out, q)
	}
	return out
}

// restoreEarlierIndexes gives file's collection table the indexes of the
// earlier version: FerretDB's on its own expression plus our second one.
func restoreEarlierIndexes(t *testing.T, file string) {
	t.Helper()
	db := openSQLite(t, file, "rw")
	var table string
	if err := db.QueryRowContext(t.Context(), `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\_ferretdb\_%' ESCAPE '\'`).Scan(&table); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		fmt.Sprintf(`DROP INDEX %q`, table+ferretIDIndexSuffix),
		fmt.Sprintf(`CREATE UNIQUE INDEX %q ON %q (_ferretdb_sjson->"_id")`, table+ferretIDIndexSuffix, table),
		fmt.Sprintf(`CREATE INDEX %q ON %q (%s)`, table+oldIDIndexSuffix, table, ferretIDExpr),
	} {
		if _, err := db.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
}

func openSQLite(t *testing.T, file, mode string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode="+mode)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
