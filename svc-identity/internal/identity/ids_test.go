package identity

import "testing"

func TestInitials(t *testing.T) {
	for _, tc := range []struct{ name, userID, want string }{
		{"Ada Lovelace", "u1", "AL"},
		{"cher", "u1", "C"},
		{"  jean  claude van damme ", "u1", "JD"},
		{"élodie durand", "u1", "ÉD"},
		{"", "bob", "B"},
		{"   ", "  zed", "Z"},
		{"", "", ""},
	} {
		if got := Initials(tc.name, tc.userID); got != tc.want {
			t.Errorf("Initials(%q, %q) = %q, want %q", tc.name, tc.userID, got, tc.want)
		}
	}
}

func TestUserRefIsStableAndScopedToTheWorkspace(t *testing.T) {
	a := UserRef("ws1", "u1")
	if len(a) != 32 || a != UserRef("ws1", "u1") {
		t.Fatalf("UserRef = %q; want 32 stable hex digits", a)
	}
	if a == UserRef("ws2", "u1") {
		t.Fatal("the same user id in another workspace must get another ref")
	}
	if organizationRef("ws1", "u1") == a || groupRef("ws1", "o", "u1") == a {
		t.Fatal("refs of different kinds must differ")
	}
}
