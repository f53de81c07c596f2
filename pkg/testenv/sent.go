package testenv

import (
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
)

// Command is one command a client sent.
type Command struct {
	Name       string // find, insert, update, ...
	Collection string
	// Filters select the documents the command reads or writes: the
	// filter of find, the query of count, distinct and findAndModify, the
	// q of each update and delete statement. A find without a filter has
	// an empty one; commands that select nothing (insert, getMore) and
	// aggregate (whose selection is in its pipeline) have none.
	Filters []bson.Raw
}

// filterKeys is where each command carries its filter.
var filterKeys = map[string]string{"find": "filter", "count": "query", "distinct": "query", "findAndModify": "query"}

// statementKeys is where update and delete carry their statements.
var statementKeys = map[string]string{"update": "updates", "delete": "deletes"}

func newCommand(e *event.CommandStartedEvent) Command {
	cmd := Command{Name: e.CommandName}
	cmd.Collection, _ = e.Command.Lookup(e.CommandName).StringValueOK()
	if key, ok := filterKeys[e.CommandName]; ok {
		f, _ := e.Command.Lookup(key).DocumentOK()
		cmd.Filters = []bson.Raw{f}
	}
	if key, ok := statementKeys[e.CommandName]; ok {
		statements, _ := e.Command.Lookup(key).Array().Values()
		for _, st := range statements {
			q, _ := st.Document().Lookup("q").DocumentOK()
			cmd.Filters = append(cmd.Filters, q)
		}
	}
	return cmd
}

// Sent is the commands a client sent, in order.
type Sent []Command

// Counts is the number of commands by name.
func (s Sent) Counts() map[string]int {
	out := map[string]int{}
	for _, c := range s {
		out[c.Name]++
	}
	return out
}

// Names lists the command names in order, getMore left out: it reads on in
// a cursor, it selects nothing new.
func (s Sent) Names() []string {
	var out []string
	for _, c := range s {
		if c.Name != "getMore" {
			out = append(out, c.Name)
		}
	}
	return out
}

// Scans lists, by command name, each selection that is not an exact _id
// (ExactID), one per filter (per statement for update and delete), and
// each aggregate. FerretDB v1, the embedded store, reads its whole
// collection for each of them, so a batch must send a bounded number of
// them, not a few per item.
func (s Sent) Scans() []string {
	var out []string
	for _, c := range s {
		if c.Name == "aggregate" {
			out = append(out, c.Name)
		}
		for _, f := range c.Filters {
			if !ExactID(f) {
				out = append(out, c.Name)
			}
		}
	}
	return out
}

// ByIDWrites is the number of update and delete statements addressed by
// an exact _id.
func (s Sent) ByIDWrites() int {
	n := 0
	for _, c := range s {
		if _, ok := statementKeys[c.Name]; !ok {
			continue
		}
		for _, f := range c.Filters {
			if ExactID(f) {
				n++
			}
		}
	}
	return n
}

// ExactID reports whether filter is {_id: <a plain value>}: the one
// selection FerretDB v1 answers without reading the whole collection (and
// an index hit on MongoDB).
func ExactID(filter bson.Raw) bool {
	elems, err := filter.Elements()
	if err != nil || len(elems) != 1 || elems[0].Key() != "_id" {
		return false
	}
	v := elems[0].Value()
	return v.Type != bson.TypeEmbeddedDocument && v.Type != bson.TypeArray
}
