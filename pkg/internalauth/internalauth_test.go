package internalauth

import (
	"net/http"
	"strconv"
	"testing"
	"time"
)

func TestSignVerify(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	s := &Signer{secret: []byte("secret-one"), now: func() time.Time { return now }}
	other := &Signer{secret: []byte("secret-two"), now: s.now}

	signed := http.Header{}
	s.Sign(signed, Workspace("ws1"))

	tests := []struct {
		name    string
		header  func() http.Header
		verify  *Signer
		wantErr bool
	}{
		{"valid", func() http.Header { return signed.Clone() }, s, false},
		{"other secret", func() http.Header { return signed.Clone() }, other, true},
		{"missing", func() http.Header { return http.Header{} }, s, true},
		{"principal swapped", func() http.Header {
			h := signed.Clone()
			h.Set(HeaderPrincipal, Workspace("ws2"))
			return h
		}, s, true},
		{"too old", func() http.Header {
			h := http.Header{}
			old := &Signer{secret: s.secret, now: func() time.Time { return now.Add(-MaxSkew - time.Second) }}
			old.Sign(h, Operator)
			return h
		}, s, true},
		{"bad timestamp", func() http.Header {
			h := signed.Clone()
			h.Set(HeaderTimestamp, "x"+strconv.Itoa(1))
			return h
		}, s, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.verify.Verify(tt.header())
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !tt.wantErr && p != Workspace("ws1") {
				t.Fatalf("principal = %q", p)
			}
		})
	}
}

func TestWorkspaceOf(t *testing.T) {
	if id, ok := WorkspaceOf(Workspace("abc")); !ok || id != "abc" {
		t.Fatalf("got %q %v", id, ok)
	}
	for _, p := range []string{Operator, Service("gateway"), "workspace:", ""} {
		if _, ok := WorkspaceOf(p); ok {
			t.Fatalf("%q should not be a workspace principal", p)
		}
	}
}
