package httpfield

import (
	"net/http"
	"net/textproto"
	"strings"
	"testing"
)

// Append writes what http.Header.Write writes for one field.
func TestAppendMatchesHeaderWrite(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"plain", " padded\t", "a\r\nInjected: yes", "line\nfeed", "", "ünï"} {
		var want strings.Builder
		if err := (http.Header{"X-Field": {v}}).Write(&want); err != nil {
			t.Fatal(err)
		}
		if got := string(Append(nil, "X-Field", v)); got != want.String() {
			t.Errorf("Append(%q) = %q, Header.Write %q", v, got, want.String())
		}
	}
}

func TestHasToken(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		vv   []string
		tok  string
		want bool
	}{
		{[]string{"keep-alive, Upgrade"}, "upgrade", true},
		{[]string{"close"}, "Close", true},
		{[]string{"x", " websocket "}, "websocket", true},
		{[]string{"upgrades"}, "upgrade", false},
		{nil, "close", false},
	} {
		if got := HasToken(tt.vv, tt.tok); got != tt.want {
			t.Errorf("HasToken(%q, %q) = %v", tt.vv, tt.tok, got)
		}
	}
}

func TestValidName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"X-Ok": true, "a!#$%&'*+-.^_`|~": true, "": false, "Bad Name": false, "Colon:": false, "Ünï": false} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v", name, got)
		}
	}
}

// Every byte is judged as RFC 9110's tchar rule has it.
func TestValidNameEveryByte(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		want := c > ' ' && c < 0x7f && !strings.ContainsRune("\"(),/:;<=>?@[\\]{}", rune(c))
		if got := ValidName("X" + string([]byte{byte(c)})); got != want {
			t.Errorf("ValidName with byte %#x = %v, want %v", c, got, want)
		}
	}
}

// A name IsCanonical accepts is one textproto leaves as it is, and every
// name of letters, digits and hyphens textproto leaves as it is is
// accepted.
func TestIsCanonicalAgreesWithTextproto(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"Content-Type", "content-type", "X-Request-Id", "X-Request-ID", "Www-Authenticate",
		"Te", "TE", "A", "a", "X-1a", "X-1A", "-", "-A", "-a", "Sec-Websocket-Key", "Sec-WebSocket-Key",
		"", "X Y", "X_Y", "X:Y", "Ünicode", "X-Ab-", "X--Ab"} {
		got := IsCanonical(k)
		plain := k != "" && strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") == ""
		want := plain && textproto.CanonicalMIMEHeaderKey(k) == k
		if got != want {
			t.Errorf("IsCanonical(%q) = %v, want %v", k, got, want)
		}
	}
	// Every name of up to three bytes from a mix of each class.
	const alphabet = "AZaz09-_ \xff"
	var names []string
	for _, a := range alphabet {
		names = append(names, string(a))
		for _, b := range alphabet {
			names = append(names, string(a)+string(b))
			for _, c := range alphabet {
				names = append(names, string(a)+string(b)+string(c))
			}
		}
	}
	for _, k := range names {
		plain := strings.Trim(k, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") == ""
		if got, want := IsCanonical(k), plain && textproto.CanonicalMIMEHeaderKey(k) == k; got != want {
			t.Errorf("IsCanonical(%q) = %v, want %v", k, got, want)
		}
	}
}
