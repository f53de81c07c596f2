package store

import (
	"encoding/json"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []string{
		`{"userId":"u1","name":"Ada <b>&</b>","n":3,"big":9007199254740993,"f":1.5,"ok":true,"none":null}`,
		`{"z":1,"a":{"y":[1,"two",{"k":"v"}],"b":[]},"e":{}}`,
		`[{"userId":"a"},{"userId":"b"}]`,
		`"text"`,
	}
	for _, in := range tests {
		v, err := fromJSON(json.RawMessage(in))
		if err != nil {
			t.Fatalf("fromJSON(%s): %v", in, err)
		}
		// Through real BSON, as the database stores it.
		raw, err := bson.Marshal(bson.D{{Key: "v", Value: v}})
		if err != nil {
			t.Fatal(err)
		}
		var back struct {
			V any `bson:"v"`
		}
		if err := bson.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		out, err := toJSON(back.V)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != in {
			t.Errorf("round trip\n got %s\nwant %s", out, in)
		}
	}
	if v, err := fromJSON(nil); v != nil || err != nil {
		t.Fatalf("empty input: %v, %v", v, err)
	}
	if out, err := toJSON(nil); out != nil || err != nil {
		t.Fatalf("nil value: %s, %v", out, err)
	}
}
