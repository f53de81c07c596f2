package main

import "testing"

func TestConfigValidateAcceptsOnlyKnownEmbeddedSync(t *testing.T) {
	for sync, ok := range map[string]bool{"normal": true, "full": true, "off": false, "": false, "FULL": false} {
		err := (&Config{EmbeddedSync: sync}).Validate()
		if (err == nil) != ok {
			t.Errorf("EMBEDDED_SYNC=%q: Validate() = %v, want accepted %v", sync, err, ok)
		}
	}
}
