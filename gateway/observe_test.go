package gateway

import (
	"reflect"
	"strconv"
	"testing"
)

// The metric series cache returns the series it built and stops growing at
// its bound (random paths must not grow it).
func TestSeriesCacheIsBounded(t *testing.T) {
	t.Parallel()
	var c seriesCache
	a := c.get("POST", "/v2/users/get", 200)
	if b := c.get("POST", "/v2/users/get", 200); !reflect.DeepEqual(a, b) {
		t.Fatal("a second get built another series")
	}
	if b := c.get("POST", "/v2/users/get", 404); reflect.DeepEqual(a, b) {
		t.Fatal("another status got the same series")
	}
	for i := range maxSeries + 10 {
		c.get("GET", "/v2/users/x"+strconv.Itoa(i), 400)
	}
	if n := len(*c.m.Load()); n != maxSeries {
		t.Fatalf("%d series kept, want %d", n, maxSeries)
	}
}
