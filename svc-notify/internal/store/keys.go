package store

import (
	"encoding/json"
)

// Why most reads and writes here go by _id: FerretDB v1 (the embedded store
// and the tests) evaluates every filter other than a lone {_id: value} by
// scanning the whole collection, so only _id lookups keep the cost of an
// add or of a user-data page independent of how many notifications exist.
// On MongoDB they are as cheap as anything else.

// docKey is a deterministic _id made of parts: their JSON array, which no
// two different lists of parts share.
func docKey(parts ...string) string {
	b, _ := json.Marshal(parts)
	return string(b)
}

func notificationKey(ws, orgID, id string) string { return docKey(ws, orgID, id) }
