package secretbox

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func testBox(t *testing.T, fill byte) *Box {
	t.Helper()
	b, err := New(bytes.Repeat([]byte{fill}, KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSealOpenRoundTrip(t *testing.T) {
	b := testBox(t, 1)
	plain := []byte("whsec_c2VjcmV0")
	sealed := b.Seal(plain, "endpoint:ws_1:ep_1")
	if !strings.HasPrefix(sealed, "v1:") || strings.Contains(sealed, string(plain)) {
		t.Fatalf("sealed value %q", sealed)
	}
	if again := b.Seal(plain, "endpoint:ws_1:ep_1"); again == sealed {
		t.Fatal("two seals of the same value are equal: the nonce is not random")
	}
	got, err := b.Open(sealed, "endpoint:ws_1:ep_1")
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("Open = %q, %v", got, err)
	}
}

func TestOpenRefuses(t *testing.T) {
	b := testBox(t, 1)
	sealed := b.Seal([]byte("secret"), "ctx-a")
	raw, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sealed, "v1:"))
	raw[len(raw)-1] ^= 1
	tampered := "v1:" + base64.RawURLEncoding.EncodeToString(raw)
	tests := []struct {
		name, value, context string
		box                  *Box
	}{
		{"other context", sealed, "ctx-b", b},
		{"other key", sealed, "ctx-a", testBox(t, 2)},
		{"tampered", tampered, "ctx-a", b},
		{"no version", strings.TrimPrefix(sealed, "v1:"), "ctx-a", b},
		{"unknown version", "v2:" + strings.TrimPrefix(sealed, "v1:"), "ctx-a", b},
		{"not base64", "v1:***", "ctx-a", b},
		{"too short", "v1:AAAA", "ctx-a", b},
		{"plaintext", "secret", "ctx-a", b},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.box.Open(tt.value, tt.context); !errors.Is(err, ErrOpen) {
				t.Fatalf("err = %v, want ErrOpen", err)
			}
		})
	}
}

func TestFromBase64(t *testing.T) {
	good := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, KeySize))
	tests := []struct {
		name    string
		in      string
		wantNil bool
		wantErr bool
	}{
		{"empty: no box", "", true, false},
		{"32 bytes", good, false, false},
		{"16 bytes", base64.StdEncoding.EncodeToString(make([]byte, 16)), true, true},
		{"not base64", "not base64!", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := FromBase64(tt.in)
			if (err != nil) != tt.wantErr || (b == nil) != tt.wantNil {
				t.Fatalf("FromBase64 = %v, %v", b, err)
			}
		})
	}
}
