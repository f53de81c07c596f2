package lib0_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/opencollab/backend/svc-content/internal/yjs/lib0"
	"github.com/opencollab/backend/svc-content/internal/yjs/yjstest"
)

// TestAgainstLib0 checks values against lib0 and JavaScript: what lib0's
// writeAny writes for a value readAny read (our encoding must be that),
// JSON.stringify of it, String() of numbers, and JSON.parse followed by
// JSON.stringify of JSON texts.
func TestAgainstLib0(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 4))
	type input struct {
		Any  string `json:"any"`
		JSON string `json:"json"`
	}
	var in bytes.Buffer
	var values []any
	var texts []string
	for i := 0; i < 3000; i++ {
		v := randomValue(rnd, 0)
		var e lib0.Encoder
		if err := e.WriteAny(v); err != nil {
			t.Fatal(err)
		}
		text := randomJSON(rnd)
		line, _ := json.Marshal(input{Any: base64.StdEncoding.EncodeToString(e.Buf), JSON: text})
		in.Write(append(line, '\n'))
		values = append(values, v)
		texts = append(texts, text)
	}
	out := yjstest.Run(t, "lib0check.mjs", in.Bytes())
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	i := 0
	for ; sc.Scan(); i++ {
		var got struct {
			Any         string  `json:"any"`
			Stringified *string `json:"stringified"`
			String      *string `json:"string"`
			JSON        *string `json:"json"`
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		checkValue(t, values[i], got.Any, got.Stringified, got.String)
		checkJSON(t, texts[i], got.JSON)
	}
	if i != len(values) {
		t.Fatalf("lib0check answered %d of %d", i, len(values))
	}
}

func checkValue(t *testing.T, v any, wantAny string, wantJSON, wantString *string) {
	t.Helper()
	var e lib0.Encoder
	_ = e.WriteAny(v)
	decoded := lib0.NewDecoder(e.Buf).ReadAny()
	var again lib0.Encoder
	_ = again.WriteAny(decoded)
	if got := base64.StdEncoding.EncodeToString(again.Buf); got != wantAny {
		t.Errorf("writeAny(readAny(%#v)): got %s, lib0 %s", v, got, wantAny)
	}
	s, ok, err := lib0.StringifyJSON(decoded)
	switch {
	case wantJSON == nil && err == nil && ok:
		t.Errorf("JSON.stringify(%#v) fails in JavaScript, got %s", v, s)
	case wantJSON != nil && (err != nil || !ok || s != *wantJSON):
		t.Errorf("JSON.stringify(%#v): got %q (%v), JavaScript %q", v, s, err, *wantJSON)
	}
	if f, isNum := decoded.(float64); isNum && wantString != nil && lib0.FormatNumber(f) != *wantString {
		t.Errorf("String(%v): got %s, JavaScript %s", f, lib0.FormatNumber(f), *wantString)
	}
}

func checkJSON(t *testing.T, text string, want *string) {
	t.Helper()
	v, err := lib0.ParseJSON(text)
	if want == nil {
		if err == nil {
			t.Errorf("JSON.parse(%q) fails in JavaScript, ParseJSON accepted it", text)
		}
		return
	}
	if err != nil {
		t.Errorf("ParseJSON(%q): %v", text, err)
		return
	}
	if s, _, _ := lib0.StringifyJSON(v); s != *want {
		t.Errorf("JSON.stringify(JSON.parse(%q)): got %s, JavaScript %s", text, s, *want)
	}
}

var keys = []string{"a", "b", "1", "0", "10", "01", "z", "é", "__x", "2", "-1", "4294967295", "4294967294"}

func randomNumber(rnd *rand.Rand) float64 {
	switch rnd.IntN(9) {
	case 0:
		return float64(rnd.IntN(200) - 100)
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return rnd.Float64() * math.Pow(10, float64(rnd.IntN(60)-30))
	case 3:
		return -rnd.Float64() * math.Pow(10, float64(rnd.IntN(44)-22))
	case 4:
		return float64(float32(rnd.Float64() * 1000))
	case 5:
		return float64(rnd.Int64N(1<<53)) * float64(1+rnd.IntN(3))
	case 6:
		return []float64{math.Inf(1), math.Inf(-1), math.NaN(), 2147483647, 2147483648, -2147483648, 1e21, 1e-7, 123e-20, 5e-324, math.MaxFloat64}[rnd.IntN(11)]
	case 7:
		return math.Float64frombits(rnd.Uint64())
	}
	return float64(rnd.IntN(1<<31)) + 0.5
}

func randomValue(rnd *rand.Rand, depth int) any {
	n := 9
	if depth > 2 {
		n = 6
	}
	switch rnd.IntN(n) {
	case 0:
		return nil
	case 1:
		return rnd.IntN(2) == 0
	case 2:
		return randomNumber(rnd)
	case 3:
		return []string{"", "x", "héllo", "👍", "\"q\"\\", "\n\t\x01", "\u2028", "a\u0000b"}[rnd.IntN(8)]
	case 4:
		return lib0.BigInt(rnd.Int64())
	case 5:
		return []byte{byte(rnd.IntN(256)), byte(rnd.IntN(256))}
	case 6:
		arr := make([]any, rnd.IntN(4))
		for i := range arr {
			arr[i] = randomValue(rnd, depth+1)
		}
		return arr
	default:
		var o lib0.Object
		for range rnd.IntN(5) {
			o = append(o, lib0.Field{Key: keys[rnd.IntN(len(keys))], Value: randomValue(rnd, depth+1)})
		}
		var b lib0.ObjectBuilder
		for _, f := range o {
			b.Set(f.Key, f.Value)
		}
		return b.Object()
	}
}

// randomJSON picks JSON texts; lone surrogates ("\ud800") are left out:
// Go strings cannot hold them (ParseJSON reads them as U+FFFD).
func randomJSON(rnd *rand.Rand) string {
	parts := []string{`{"b":1,"a":2,"b":3}`, `{"2":1,"1":2,"x":3}`, `[1,2.50,-0,1e400,1E-2]`, `"\ud83d\udc4d\u00e9\n"`,
		`{"__proto__":1}`, ` [ true , false , null ] `, `01`, `1.`, `{"a":1,}`, `"\x"`, `-`, `[1e21, 0.000001, 1e-7]`,
		`123456789012345678901234567890`, `{}`, `[]`, `"tab\there"`, `1 2`, `{"a":{"b":[{"c":"d"}]}}`}
	s := parts[rnd.IntN(len(parts))]
	if rnd.IntN(4) == 0 {
		s = "[" + s + "," + parts[rnd.IntN(len(parts))] + "]"
	}
	return strings.TrimSpace(s)
}

// TestQuoteJSONEscapesWithinLongRuns: escapes between long runs of plain
// bytes (written whole) land in place, and the quoted text reads back.
func TestQuoteJSONEscapesWithinLongRuns(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	for c := range 0x80 {
		in.WriteString(strings.Repeat("ab", c%7))
		in.WriteByte(byte(c))
	}
	in.WriteString("héllo 👍 end")
	var out strings.Builder
	lib0.QuoteJSON(&out, in.String())
	var back string
	if err := json.Unmarshal([]byte(out.String()), &back); err != nil {
		t.Fatalf("QuoteJSON wrote invalid JSON %q: %v", out.String(), err)
	}
	if back != in.String() {
		t.Fatalf("QuoteJSON(%q) reads back as %q", in.String(), back)
	}
	for _, c := range []byte(out.String()) {
		if c < 0x20 {
			t.Fatalf("QuoteJSON left control byte %#x unescaped in %q", c, out.String())
		}
	}
	if !strings.Contains(out.String(), `ab\n`) || !strings.Contains(out.String(), `\u0001`) {
		t.Fatalf("QuoteJSON did not use JSON.stringify's escapes: %q", out.String())
	}
}
