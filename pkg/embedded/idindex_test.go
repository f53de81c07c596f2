package embedded

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// ferretIDExpr is how FerretDB v1.24's SQLite backend filters by _id
// (metadata.IDColumn); if an upgrade changes it, this test fails.
const ferretIDExpr = `_ferretdb_sjson->'$._id'`

// After a sweep, a lookup by _id in the SQL FerretDB runs is an index
// seek on FerretDB's own unique _id index (rebuilt on the expression it
// queries), not a scan, and documents still read and update correctly.
func TestIDLookupsUseAnIndex(t *testing.T) {
	dir := t.TempDir()
	withFerret(t, dir, func(c *mongo.Collection) {
		ctx := t.Context()
		if _, err := c.InsertOne(ctx, doc{"u1", "a@example.com"}); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "app.sqlite")
		plan := waitForPlan(t, file)
		if !strings.Contains(plan, "USING INDEX") || !strings.Contains(plan, ferretIDIndexSuffix) {
			t.Fatalf("lookup by _id plan = %q, want FerretDB's _id index", plan)
		}
		if _, err := c.UpdateOne(ctx, bson.M{"_id": "u1"}, bson.M{"$set": bson.M{"email": "b@example.com"}}); err != nil {
			t.Fatal(err)
		}
		var got doc
		if err := c.FindOne(ctx, bson.M{"_id": "u1"}).Decode(&got); err != nil || got.Email != "b@example.com" {
			t.Fatalf("find after update = %+v, %v", got, err)
		}
	})
}

// waitForPlan waits up to ten sweeps for the lookup by _id to use an
// index and returns its plan.
func waitForPlan(t *testing.T, file string) string {
	t.Helper()
	var plan string
	for deadline := time.Now().Add(10 * idIndexSweep); time.Now().Before(deadline); time.Sleep(idIndexSweep / 4) {
		if plan = queryPlan(t, file); strings.Contains(plan, "USING INDEX") {
			break
		}
	}
	return plan
}

// queryPlan is SQLite's plan for FerretDB's lookup by _id on the only
// collection table of file.
func queryPlan(t *testing.T, file string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var table string
	err = db.QueryRowContext(t.Context(), `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\_ferretdb\_%' ESCAPE '\'`).Scan(&table)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(t.Context(), `EXPLAIN QUERY PLAN SELECT _ferretdb_sjson FROM "`+table+`" WHERE `+ferretIDExpr+` = ?`, `"u1"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "; ")
}
