package origins

import "testing"

func TestNormalize(t *testing.T) {
	t.Parallel()
	good := map[string]string{
		"https://www.google.com":  "google.com",
		"https://*.firebase.com":  "*.firebase.com",
		"  App.Example.COM/ ":     "app.example.com",
		"http://localhost:3000":   "localhost:3000",
		"localhost":               "localhost",
		"127.0.0.1:8080":          "127.0.0.1:8080",
		"http://[::1]:5173":       "[::1]:5173",
		"www.example.co.uk":       "example.co.uk",
		"https://a-b.example.com": "a-b.example.com",
	}
	for in, want := range good {
		if got, err := Normalize(in); err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "  ", "ftp://example.com", "https://example.com/path", "example.com?x=1",
		"user@example.com", "exa*mple.com", "*.", "example..com", "-a.com", "a.com:0", "a.com:99999", "a.com:x",
		"https://", "[zz::1]", "a_b.com"} {
		if got, err := Normalize(bad); err == nil {
			t.Errorf("Normalize(%q) = %q, want an error", bad, got)
		}
	}
}

func TestAllowed(t *testing.T) {
	t.Parallel()
	list := []string{"google.com", "*.firebase.com", "localhost:3000", "[::1]:5173"}
	cases := map[string]bool{
		"":                             true, // not a browser
		"https://google.com":           true,
		"https://www.google.com":       true,
		"http://google.com:8443":       true, // no port in the entry: any port
		"https://mail.google.com":      false,
		"https://app.firebase.com":     true,
		"https://a.b.firebase.com":     true,
		"https://firebase.com":         false,
		"https://evilfirebase.com":     false,
		"http://localhost:3000":        true,
		"http://localhost:3001":        false,
		"http://[::1]:5173":            true,
		"null":                         false,
		"file://google.com":            false,
		"https://google.com.evil.com":  false,
		"https://GOOGLE.com":           true,
		"chrome-extension://abcdefghi": false,
	}
	for origin, want := range cases {
		if got := Allowed(list, origin); got != want {
			t.Errorf("Allowed(%q) = %v, want %v", origin, got, want)
		}
	}
	if !Allowed(nil, "https://anything.example") {
		t.Error("an empty list must allow every origin")
	}
}
