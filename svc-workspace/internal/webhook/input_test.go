package webhook

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/api"
)

func TestMaskAPIKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"short", "********"},
		{"elevenchars", "********"},
		{"SG.0123456789abcd", "SG.****abcd"},
		{"ключключключключ", "клю****ключ"},
	}
	for _, tt := range tests {
		if got := maskAPIKey(tt.in); got != tt.want {
			t.Errorf("maskAPIKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNormalizePublicKey(t *testing.T) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkix, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	good := base64.StdEncoding.EncodeToString(pkix)
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	smallDER, _ := x509.MarshalPKIXPublicKey(&small.PublicKey)
	tests := []struct {
		name, in, want string
		wantErr        bool
	}{
		{"empty clears", "  ", "", false},
		{"PKIX", good, good, false},
		{"PKCS#1", base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PublicKey(&key.PublicKey)),
			base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PublicKey(&key.PublicKey)), false},
		{"line-wrapped", good[:64] + "\n" + good[64:], good, false},
		{"1024 bits", base64.StdEncoding.EncodeToString(smallDER), "", true},
		{"PEM", "-----BEGIN PUBLIC KEY-----\n" + good + "\n-----END PUBLIC KEY-----", "", true},
		{"not base64", "@@@", "", true},
		{"garbage DER", base64.StdEncoding.EncodeToString([]byte("garbage")), "", true},
		{"private key", base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PrivateKey(key)), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := normalizePublicKey(tt.in)
			if tt.wantErr {
				if !api.IsStatus(err, api.InvalidArgument) {
					t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("normalizePublicKey = %q, %v", got, err)
			}
		})
	}
}

func TestValidateSpec(t *testing.T) {
	str := func(s string) *string { return &s }
	num := func(n int) *int { return &n }
	tests := []struct {
		name    string
		spec    EndpointSpec
		wantErr string // field named in the message; "" = valid
	}{
		{"minimal", EndpointSpec{URL: "https://x.example.com"}, ""},
		{"http with port and path", EndpointSpec{URL: "http://10.0.0.1:8080/hook?x=1"}, ""},
		{"no url", EndpointSpec{}, "url"},
		{"scheme", EndpointSpec{URL: "wss://x.example.com"}, "url"},
		{"no host", EndpointSpec{URL: "https://:443/x"}, "url"},
		{"too long", EndpointSpec{URL: "https://x.example.com/" + strings.Repeat("a", maxURLLen)}, "url"},
		{"long description", EndpointSpec{URL: "https://x.example.com", Description: str(strings.Repeat("d", 1001))}, "description"},
		{"empty uid", EndpointSpec{URL: "https://x.example.com", UID: str("")}, "uid"},
		{"empty filterTypes", EndpointSpec{URL: "https://x.example.com", FilterTypes: []string{}}, "filterTypes"},
		{"unknown filterType", EndpointSpec{URL: "https://x.example.com", FilterTypes: []string{"comment.add", "x"}}, "filterTypes[1]"},
		{"bad channel", EndpointSpec{URL: "https://x.example.com", Channels: []string{"a b"}}, "channels[0]"},
		{"too many channels", EndpointSpec{URL: "https://x.example.com", Channels: strings.Fields("a b c d e f g h i j k")}, "channels"},
		{"rateLimit 0", EndpointSpec{URL: "https://x.example.com", RateLimit: num(0)}, "rateLimit"},
		{"rateLimit huge", EndpointSpec{URL: "https://x.example.com", RateLimit: num(maxRateLimit + 1)}, "rateLimit"},
		{"long metadata value", EndpointSpec{URL: "https://x.example.com", Metadata: map[string]string{"k": strings.Repeat("v", 1025)}}, "metadata.k"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := validateSpec(tt.spec)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if !api.IsStatus(err, api.InvalidArgument) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT naming %s", err, tt.wantErr)
			}
		})
	}
	got, _ := validateSpec(EndpointSpec{URL: "https://x.example.com", FilterTypes: []string{"comment.add", "comment.add", "activity.add"}})
	if !slices.Equal(got.FilterTypes, []string{"comment.add", "activity.add"}) {
		t.Fatalf("filterTypes not deduplicated: %v", got.FilterTypes)
	}
}

func TestValidateChangesNeedsAField(t *testing.T) {
	if _, err := validateChanges(EndpointChanges{}); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("empty update: %v", err)
	}
	empty := []string{}
	if _, err := validateChanges(EndpointChanges{FilterTypes: Patch[[]string]{Set: true, Value: &empty}}); !api.IsStatus(err, api.InvalidArgument) {
		t.Fatalf("empty filterTypes: %v", err)
	}
	if _, err := validateChanges(EndpointChanges{Description: Patch[string]{Set: true}}); err != nil {
		t.Fatalf("clearing the description: %v", err)
	}
}

func TestRotatedAndLive(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	old := []Secret{
		{Sealed: "expired", ExpiresAt: at(-time.Minute)},
		{Sealed: "cur"},
		{Sealed: "overlap", ExpiresAt: at(time.Hour)},
	}
	if got := live(old, now); len(got) != 2 || got[0].Sealed != "cur" || got[1].Sealed != "overlap" {
		t.Fatalf("live = %+v, want cur then overlap", got)
	}
	got := rotated(old, Secret{Sealed: "new"}, now)
	if len(got) != 3 || got[0].Sealed != "new" || got[0].ExpiresAt != nil ||
		got[1].Sealed != "cur" || !got[1].ExpiresAt.Equal(now.Add(RotationOverlap)) || got[2].Sealed != "overlap" {
		t.Fatalf("rotated = %+v", got)
	}
}
