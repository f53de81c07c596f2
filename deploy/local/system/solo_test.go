package system

import "testing"

// Only a lone content replica on the embedded stores drops the realtime
// fan-out; a second replica, or stores other processes may share, keep it.
func TestSoloContentOnlyAloneOnEmbeddedStores(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		o    Options
		solo bool
	}{
		{"embedded, default replicas", Options{}, true},
		{"embedded, one replica", Options{ContentReplicas: 1}, true},
		{"embedded, two replicas", Options{ContentReplicas: 2}, false},
		{"named Redis", Options{RedisURL: "redis://127.0.0.1:6379"}, false},
		{"named MongoDB", Options{MongoURI: "mongodb://127.0.0.1:27017"}, false},
	} {
		if got := soloContent(c.o); got != c.solo {
			t.Errorf("%s: solo %v, want %v", c.name, got, c.solo)
		}
	}
}
