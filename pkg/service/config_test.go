package service

import (
	"strings"
	"testing"
)

func TestBaseValidate(t *testing.T) {
	long := strings.Repeat("s", MinSecretLen)
	if err := (&Base{InternalSecret: long}).Validate(); err != nil {
		t.Fatalf("Validate() = %v for a long enough secret", err)
	}
	if err := (&Base{InternalSecret: long[1:]}).Validate(); err == nil {
		t.Fatal("Validate() accepted a short secret")
	}
	if err := (&Base{MongoURI: "mongodb://m", RedisURL: "redis://r"}).ValidateStores(); err != nil {
		t.Fatalf("ValidateStores() = %v with both addresses", err)
	}
	for _, b := range []Base{{}, {MongoURI: "mongodb://m"}, {RedisURL: "redis://r"}} {
		if err := b.ValidateStores(); err == nil {
			t.Fatalf("ValidateStores accepted %+v", b)
		}
	}
}

func TestCheckServiceURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"": true, "http://svc:8080": true, "https://svc/": true,
		"svc:8080": false, "ftp://svc": false, "http://svc/path": false, "http://svc?q=1": false, "http://": false,
	} {
		if err := CheckServiceURL(raw); (err == nil) != ok {
			t.Errorf("CheckServiceURL(%q) = %v, want ok=%v", raw, err, ok)
		}
	}
}

func TestDefaultDatabase(t *testing.T) {
	if got := DefaultDatabase("svc-notify"); got != "collab_notify" {
		t.Fatalf("DefaultDatabase = %q", got)
	}
}
