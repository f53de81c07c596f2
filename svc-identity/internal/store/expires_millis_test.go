package store_test

import (
	"testing"

	"github.com/opencollab/backend/svc-identity/internal/identity"
)

// Grants stored by earlier versions kept expiresAt in Unix seconds; the
// conversion at start makes them epoch milliseconds, leaves millisecond
// and permanent grants alone, and converts nothing twice.
func TestConvertExpiresToMillis(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	seconds, millis := int64(4102444800), int64(4102444800123)
	old, current, permanent := docMember("d1", "old"), docMember("d1", "current"), docMember("d1", "permanent")
	old.ExpiresAt, current.ExpiresAt = &seconds, &millis
	mustSave(t, s, "ws1", old)
	mustSave(t, s, "ws1", current)
	mustSave(t, s, "ws1", permanent)

	n, err := s.ConvertExpiresToMillis(ctx)
	if err != nil || n != 1 {
		t.Fatalf("converted %d, %v; want 1", n, err)
	}
	want := map[identity.MembershipKey]*int64{old.MembershipKey: new(seconds * 1000), current.MembershipKey: &millis, permanent.MembershipKey: nil}
	for key, exp := range want {
		got, err := s.GetMembership(ctx, "ws1", key)
		if err != nil {
			t.Fatal(err)
		}
		if (exp == nil) != (got.ExpiresAt == nil) || (exp != nil && *got.ExpiresAt != *exp) {
			t.Errorf("%s: expiresAt = %v, want %v", key.UserID, got.ExpiresAt, exp)
		}
	}
	if n, err := s.ConvertExpiresToMillis(ctx); err != nil || n != 0 {
		t.Fatalf("second run converted %d, %v; want 0", n, err)
	}
}
