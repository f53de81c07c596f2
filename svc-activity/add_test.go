package svcactivity_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	svcactivity "github.com/opencollab/backend/svc-activity"
)

func TestAddThenGetShape(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	// Sent as raw text: the free-form JSON must come back byte for byte
	// (key order, 1.0, a number beyond int64). HTML is left out of the byte
	// comparison: pkg/api's envelope escapes <, > and & as \u003c etc.,
	// which is the same JSON value.
	const entityData = `{"z":1.0,"a":[1,"x",null],"big":12345678901234567890,"e":1e3}`
	body := `{"data":{"organizationId":"o1","documentId":"d1","activities":[{
		"id":"a1","featureType":"custom","actionType":"approval.granted",
		"actionUser":{"userId":"u1","name":"Ann","email":"ann@example.com"},
		"targetEntityId":"t1","targetSubEntityId":"s1",
		"changes":{"status":{"from":"open","to":"done"}},
		"entityData":` + entityData + `,
		"entityTargetData":"<b>&</b>",
		"displayMessageTemplate":"{{user}} approved","displayMessageTemplateData":{"user":"Ann"},
		"actionIcon":"https://icons/ok.svg","isActivityResolverUsed":true}]}}`
	before := time.Now().UnixMilli()
	code, r := e.CallRaw(ws1, "/v2/activities/add", []byte(body))
	if code != http.StatusOK || r.Result.Status != "success" || r.Result.Message != "Activities added." {
		t.Fatalf("add: HTTP %d %+v", code, r)
	}
	if got := string(r.Result.Data); got != `{"success":true,"message":"Activities added."}` {
		t.Fatalf("add result.data = %s", got)
	}

	page, next := e.get(ws1, map[string]any{"organizationId": "o1"})
	if len(page) != 1 || next != "" {
		t.Fatalf("get: %d records, token %q", len(page), next)
	}
	v := page[0]
	if v.ID != "a1" || v.FeatureType != "custom" || v.ActionType != "approval.granted" ||
		v.TargetEntityID != "t1" || v.TargetSubEntityID != "s1" || v.DisplayMessageTemplate != "{{user}} approved" ||
		v.ActionIcon != "https://icons/ok.svg" || !v.IsActivityResolverUsed || v.Immutable ||
		v.Metadata.DocumentID != "d1" || v.Metadata.OrganizationID != "o1" {
		t.Fatalf("record %+v", v)
	}
	if v.Timestamp < before || v.Timestamp > time.Now().UnixMilli() {
		t.Fatalf("timestamp %d is not the server's time of the add", v.Timestamp)
	}
	for _, c := range []struct{ name, got, want string }{
		{"actionUser", string(v.ActionUser), `{"userId":"u1","name":"Ann","email":"ann@example.com"}`},
		{"changes", string(v.Changes), `{"status":{"from":"open","to":"done"}}`},
		{"entityData", string(v.EntityData), entityData},
		{"displayMessageTemplateData", string(v.DisplayMessageTemplateData), `{"user":"Ann"}`},
	} {
		if c.got != c.want {
			t.Errorf("%s read back %s, want %s", c.name, c.got, c.want)
		}
	}
	var html string
	if err := json.Unmarshal(v.EntityTargetData, &html); err != nil || html != "<b>&</b>" {
		t.Errorf("entityTargetData read back %s", v.EntityTargetData)
	}
	// Absent optional fields are omitted, not null; metadata has no apiKey.
	e.add(ws1, "o1", "d1", comment("a2"))
	_, r = e.Call(ws1, "/v2/activities/get", map[string]any{"organizationId": "o1", "activityIds": []string{"a2"}})
	var bare []map[string]any
	_ = json.Unmarshal(r.Result.Data, &bare)
	for _, k := range []string{"changes", "entityData", "entityTargetData", "targetEntityId", "targetSubEntityId",
		"displayMessageTemplate", "displayMessageTemplateData", "actionIcon"} {
		if _, has := bare[0][k]; has {
			t.Errorf("absent %s is present: %v", k, bare[0])
		}
	}
	if md, _ := bare[0]["metadata"].(map[string]any); len(md) != 2 {
		t.Errorf("metadata %v, want documentId and organizationId only", bare[0]["metadata"])
	}
}

func TestAddOverwritesByID(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	first := comment("a1")
	first["entityData"] = map[string]any{"v": 1}
	first["targetEntityId"] = "t1"
	e.add(ws1, "o1", "d1", first)
	firstTS := e.onlyRecord("a1").Timestamp

	waitNextMilli(firstTS)
	second := act{"id": "a1", "featureType": "reaction", "actionType": "reaction.add", "actionUser": user("u2")}
	e.add(ws1, "o1", "d1", second)

	if n := e.count(bson.M{"workspaceId": "ws1"}); n != 1 {
		t.Fatalf("%d records after two adds of one id, want 1", n)
	}
	v := e.onlyRecord("a1")
	if v.FeatureType != "reaction" || v.ActionType != "reaction.add" || v.EntityData != nil || v.TargetEntityID != "" ||
		!strings.Contains(string(v.ActionUser), `"u2"`) {
		t.Fatalf("second content did not replace the first wholesale: %+v", v)
	}
	if v.Timestamp <= firstTS {
		t.Fatalf("overwrite kept timestamp %d (first %d); it must be the time of the overwrite", v.Timestamp, firstTS)
	}

	// The same id twice in one call: one record, the later content.
	e.add(ws1, "o1", "d1", comment("dup"), act{"id": "dup", "featureType": "crdt", "actionType": "crdt.edit", "actionUser": user("u1")})
	if v := e.onlyRecord("dup"); v.FeatureType != "crdt" {
		t.Fatalf("duplicate ids in one call: %+v, want the later one", v)
	}
}

func (e *env) onlyRecord(id string) view {
	e.T.Helper()
	page, _ := e.get(ws1, map[string]any{"organizationId": "o1", "activityIds": []string{id}})
	if len(page) != 1 {
		e.T.Fatalf("get %s: %d records", id, len(page))
	}
	return page[0]
}

// waitNextMilli returns once the clock has passed ms, so the next write
// gets a later timestamp.
func waitNextMilli(ms int64) {
	for time.Now().UnixMilli() <= ms {
		time.Sleep(time.Millisecond)
	}
}

func TestAddGeneratesIDs(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	e.add(ws1, "o1", "d1", comment(""), comment(""), comment(""))
	page, _ := e.get(ws1, map[string]any{"organizationId": "o1"})
	seen := map[string]bool{}
	for _, v := range page {
		if !strings.HasPrefix(v.ID, "act_") || len(v.ID) < 20 || seen[v.ID] {
			t.Fatalf("generated ids %v", ids(page))
		}
		seen[v.ID] = true
	}
	if len(seen) != 3 {
		t.Fatalf("%d records, want 3", len(seen))
	}
}

func TestAddInvalidWritesNothing(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	with := func(mod func(act)) act { a := comment("bad"); mod(a); return a }
	many := make([]act, 501)
	for i := range many {
		many[i] = comment("")
	}
	tests := []struct {
		name  string
		data  map[string]any
		field string // the message names it
	}{
		{"no organizationId", map[string]any{"documentId": "d1", "activities": []act{comment("")}}, "organizationId"},
		{"no documentId", map[string]any{"organizationId": "o1", "activities": []act{comment("")}}, "documentId"},
		{"no activities", map[string]any{"organizationId": "o1", "documentId": "d1", "activities": []act{}}, "activities"},
		{"too many", map[string]any{"organizationId": "o1", "documentId": "d1", "activities": many}, "at most 500"},
		{"no featureType", batch(with(func(a act) { delete(a, "featureType") })), "activities[1].featureType is required"},
		{"unknown featureType", batch(with(func(a act) { a["featureType"] = "huddle" })), "activities[1].featureType has unknown value"},
		{"no actionType", batch(with(func(a act) { delete(a, "actionType") })), "activities[1].actionType is required"},
		{"no actionUser", batch(with(func(a act) { delete(a, "actionUser") })), "activities[1].actionUser is required"},
		{"actionUser without userId", batch(with(func(a act) { a["actionUser"] = map[string]any{"name": "x"} })), "activities[1].actionUser.userId is required"},
		{"custom without target", batch(with(func(a act) { a["featureType"] = "custom" })), "activities[1].targetEntityId is required when featureType is custom"},
		{"changes not an object", batch(with(func(a act) { a["changes"] = []int{1} })), "activities[1].changes"},
		{"template data not an object", batch(with(func(a act) { a["displayMessageTemplateData"] = "x" })), "activities[1].displayMessageTemplateData"},
		{"dollar key", batch(with(func(a act) { a["entityData"] = map[string]any{"$set": 1} })), "$set"},
		{"dotted key", batch(with(func(a act) { a["entityData"] = map[string]any{"a.b": 1} })), "a.b"},
		{"wrong type", batch(with(func(a act) { a["isActivityResolverUsed"] = "yes" })), "isActivityResolverUsed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(ws1, "/v2/activities/add", tt.data, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
	if n := e.count(bson.M{}); n != 0 {
		t.Fatalf("invalid adds wrote %d records", n)
	}
	if evs := e.published(); len(evs) != 0 {
		t.Fatalf("invalid adds published %d events", len(evs))
	}
}

// batch is an add body with a good record first and bad second.
func batch(bad act) map[string]any {
	return map[string]any{"organizationId": "o1", "documentId": "d1", "activities": []act{comment("good"), bad}}
}

func TestImmutableRecordsAreProtected(t *testing.T) {
	e := newEnv(t, svcactivity.Config{})
	e.add(ws1, "o1", "d1", comment("locked"), comment("free"))
	if _, err := e.DB.Collection("activities").UpdateOne(context.Background(),
		bson.M{"workspaceId": "ws1", "id": "locked"}, bson.M{"$set": bson.M{"immutable": true}}); err != nil {
		t.Fatal(err)
	}
	if !e.onlyRecord("locked").Immutable {
		t.Fatal("get does not report immutable")
	}
	r := e.Fails(ws1, "/v2/activities/add", batch(comment("locked")), http.StatusBadRequest, "FAILED_PRECONDITION")
	if !strings.Contains(r.Error.Message, "locked") {
		t.Fatalf("message %q does not name the record", r.Error.Message)
	}
	if n := e.count(bson.M{"id": "good"}); n != 0 {
		t.Fatal("a refused add wrote the other records of the call")
	}

	var upd map[string]itemResult
	e.OK(ws1, "/v2/activities/update", map[string]any{"organizationId": "o1",
		"activities": []map[string]any{{"id": "locked", "actionIcon": "x"}}}, &upd)
	var del map[string]itemResult
	e.OK(ws1, "/v2/activities/delete", map[string]any{"organizationId": "o1", "documentId": "d1"}, &del)
	if upd["locked"].Success || del["locked"].Success || !del["free"].Success {
		t.Fatalf("update %+v, delete %+v", upd, del)
	}
	if v := e.onlyRecord("locked"); v.ActionIcon != "" {
		t.Fatalf("immutable record changed: %+v", v)
	}
}
