package legacyyjs

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"testing"
)

// The expected bytes below were written by lib0 0.2.120 (the version yjs
// 13.6.33 uses): encoding.writeVarUint / writeVarInt / writeVarString /
// writeAny.

func TestVarUint(t *testing.T) {
	tests := []struct {
		n    uint64
		want string
	}{
		{0, "00"}, {1, "01"}, {63, "3f"}, {64, "40"}, {127, "7f"}, {128, "8001"}, {300, "ac02"},
		{16384, "808001"}, {2147483647, "ffffffff07"}, {4294967295, "ffffffff0f"},
		{9007199254740991, "ffffffffffffff0f"},
	}
	for _, tt := range tests {
		var e encoder
		e.varUint(tt.n)
		if got := hex.EncodeToString(e.buf); got != tt.want {
			t.Errorf("varUint(%d) = %s, want %s", tt.n, got, tt.want)
		}
	}
}

func TestVarInt(t *testing.T) {
	tests := []struct {
		magnitude uint64
		negative  bool
		want      string
	}{
		{0, false, "00"}, {0, true, "40"}, {1, false, "01"}, {1, true, "41"}, {63, false, "3f"},
		{64, false, "8001"}, {64, true, "c001"}, {8191, false, "bf7f"}, {8192, false, "808001"},
		{8192, true, "c08001"}, {2147483647, false, "bfffffff0f"}, {2147483647, true, "ffffffff0f"},
	}
	for _, tt := range tests {
		var e encoder
		e.varInt(tt.magnitude, tt.negative)
		if got := hex.EncodeToString(e.buf); got != tt.want {
			t.Errorf("varInt(%d, negative=%v) = %s, want %s", tt.magnitude, tt.negative, got, tt.want)
		}
	}
}

func TestVarString(t *testing.T) {
	tests := []struct{ s, want string }{
		{"", "00"}, {"a", "0161"}, {"é", "02c3a9"}, {"中文", "06e4b8ade69687"}, {"👍🏽", "08f09f918df09f8fbd"},
	}
	for _, tt := range tests {
		var e encoder
		e.varString(tt.s)
		if got := hex.EncodeToString(e.buf); got != tt.want {
			t.Errorf("varString(%q) = %s, want %s", tt.s, got, tt.want)
		}
	}
}

func TestAny(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"zero", json.Number("0"), "7d00"},
		{"negative zero", json.Number("-0"), "7d40"},
		{"max varint", json.Number("2147483647"), "7dbfffffff0f"},
		{"2^31 is a float32", json.Number("2147483648"), "7c4f000000"},
		{"-2^31 is a float32", json.Number("-2147483648"), "7ccf000000"},
		{"float32", json.Number("1.5"), "7c3fc00000"},
		{"float64", json.Number("0.1"), "7b3fb999999999999a"},
		{"huge", json.Number("1e300"), "7b7e37e43c8800759c"},
		{"negative float32", json.Number("-2.5"), "7cc0200000"},
		{"large integer", json.Number("123456789012"), "7b423cbe991a140000"},
		{"float64 value", -2.5, "7cc0200000"},
		{"int value", 1, "7d01"},
		{"null", nil, "7e"},
		{"true", true, "78"},
		{"false", false, "79"},
		{"string", "x", "770178"},
		{"array", []any{json.Number("1"), "a"}, "75027d01770161"},
		{"object", Object{{Key: "k", Value: nil}}, "7601016b7e"},
		{"go map", map[string]any{"k": nil}, "7601016b7e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e encoder
			if err := e.any(tt.v); err != nil {
				t.Fatal(err)
			}
			if got := hex.EncodeToString(e.buf); got != tt.want {
				t.Errorf("any(%v) = %s, want %s", tt.v, got, tt.want)
			}
		})
	}
}

func TestAnyRefusesWhatYjsCannotStore(t *testing.T) {
	for _, v := range []any{math.Inf(1), math.NaN(), struct{}{}, []any{math.Inf(-1)}} {
		var e encoder
		if err := e.any(v); err == nil {
			t.Errorf("any(%v): want error", v)
		}
	}
}

func TestParseJSON(t *testing.T) {
	v, err := ParseJSON([]byte(`{"b":1,"a":[true,null,"x",{"z":2.5}],"b":3}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Object{
		{Key: "b", Value: json.Number("3")},
		{Key: "a", Value: []any{true, nil, "x", Object{{Key: "z", Value: json.Number("2.5")}}}},
	}
	if hex.EncodeToString(mustAny(t, v)) != hex.EncodeToString(mustAny(t, want)) {
		t.Fatalf("ParseJSON = %#v, want %#v", v, want)
	}
	for _, bad := range []string{`1e400`, `[1] 2`, `{"a":}`, ``} {
		if _, err := ParseJSON([]byte(bad)); err == nil {
			t.Errorf("ParseJSON(%q): want error", bad)
		}
	}
}

func mustAny(t *testing.T, v any) []byte {
	t.Helper()
	var e encoder
	if err := e.any(v); err != nil {
		t.Fatal(err)
	}
	return e.buf
}
