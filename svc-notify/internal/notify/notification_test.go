package notify

import (
	"encoding/json"
	"slices"
	"testing"
)

func user(id string) User {
	return User{ID: id, Raw: json.RawMessage(`{"userId":"` + id + `"}`)}
}

func TestDerivedUsers(t *testing.T) {
	tests := []struct {
		name                          string
		n                             Notification
		recipients, audience, involve []string
		audienceOnly                  []string
	}{
		{
			name:       "notifyUsers and recipientUser as a string",
			n:          Notification{ActionUser: user("a"), NotifyUsers: []User{user("c"), user("b")}, HeadlineData: json.RawMessage(`{"recipientUser":"b"}`)},
			recipients: []string{"b", "c"}, audience: []string{"b", "c"}, involve: []string{"a", "b", "c"},
		},
		{
			name:       "recipientUser as a User object, whole organization",
			n:          Notification{ActionUser: user("a"), NotifyAll: true, HeadlineData: json.RawMessage(`{"actionUser":{"userId":"a"},"recipientUser":{"userId":"r","name":"R"}}`)},
			recipients: []string{"r"}, audience: []string{Everyone, "r"}, involve: []string{"a", "r"},
		},
		{
			name:       "nobody directly",
			n:          Notification{ActionUser: user("a"), NotifyAll: true},
			recipients: []string{}, audience: []string{Everyone}, involve: []string{"a"},
		},
		{
			name:       "action user is also a recipient",
			n:          Notification{ActionUser: user("a"), NotifyUsers: []User{user("a")}},
			recipients: []string{"a"}, audience: []string{"a"}, involve: []string{"a"},
		},
		{
			name: "withheld recipientUser: no recipient, still involved",
			n: Notification{ActionUser: user("a"), NotifyUsers: []User{user("b")}, WithheldRecipient: "r",
				HeadlineData: json.RawMessage(`{"recipientUser":{"userId":"r"}}`)},
			recipients: []string{"b"}, audience: []string{"b"}, involve: []string{"a", "b", "r"},
		},
		{
			name: "whole organization, verified: its users with access instead of Everyone, not involved",
			n: Notification{ActionUser: user("a"), NotifyAll: true, NotifyUsers: []User{user("b")},
				AudienceVerified: true, AudienceUsers: []string{"c", "b", "d"}},
			recipients: []string{"b"}, audience: []string{"b", "c", "d"}, involve: []string{"a", "b"},
			audienceOnly: []string{"c", "d"},
		},
		{
			name:       "whole organization, verified, nobody else with access",
			n:          Notification{ActionUser: user("a"), NotifyAll: true, NotifyUsers: []User{user("b")}, AudienceVerified: true},
			recipients: []string{"b"}, audience: []string{"b"}, involve: []string{"a", "b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.n.Recipients(); !slices.Equal(got, tt.recipients) {
				t.Errorf("Recipients() = %q, want %q", got, tt.recipients)
			}
			if got := tt.n.Audience(); !slices.Equal(got, tt.audience) {
				t.Errorf("Audience() = %q, want %q", got, tt.audience)
			}
			if got := tt.n.Involved(); !slices.Equal(got, tt.involve) {
				t.Errorf("Involved() = %q, want %q", got, tt.involve)
			}
			if got := tt.n.AudienceOnly(); !slices.Equal(got, tt.audienceOnly) {
				t.Errorf("AudienceOnly() = %q, want %q", got, tt.audienceOnly)
			}
		})
	}
}

func TestInForYou(t *testing.T) {
	base := Notification{NotifyUsers: []User{user("u")}, NotifyAll: true}
	read := base
	read.ReadBy = []string{"u"}
	kept := read
	kept.PersistReadFor = []string{"u"}
	tests := []struct {
		name string
		n    Notification
		user string
		want bool
	}{
		{"unread recipient", base, "u", true},
		{"read recipient", read, "u", false},
		{"read recipient who keeps read ones", kept, "u", true},
		{"organization member, not a recipient", base, "other", false},
	}
	for _, tt := range tests {
		if got := tt.n.InForYou(tt.user); got != tt.want {
			t.Errorf("%s: InForYou(%q) = %v, want %v", tt.name, tt.user, got, tt.want)
		}
	}
}

func TestChangeApply(t *testing.T) {
	body := "new body"
	n := Notification{ID: "n1", BodyMessage: "old", ReadBy: []string{"a"}, PersistReadFor: []string{"a"}}
	tests := []struct {
		name            string
		c               Change
		body            string
		readBy, persist []string
	}{
		{"nothing", Change{}, "old", []string{"a"}, []string{"a"}},
		{"body", Change{BodyMessage: &body}, "new body", []string{"a"}, []string{"a"}},
		{"read", Change{ReadBy: []string{"c", "b", "a"}}, "old", []string{"a", "b", "c"}, []string{"a"}},
		{"read and keep", Change{ReadBy: []string{"b"}, PersistRead: true}, "old", []string{"a", "b"}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		got := tt.c.apply(n)
		if got.BodyMessage != tt.body || !slices.Equal(got.ReadBy, tt.readBy) || !slices.Equal(got.PersistReadFor, tt.persist) {
			t.Errorf("%s: got body %q readBy %q persist %q", tt.name, got.BodyMessage, got.ReadBy, got.PersistReadFor)
		}
	}
	if !slices.Equal(n.ReadBy, []string{"a"}) {
		t.Fatalf("apply changed its input: %q", n.ReadBy)
	}
}

func TestFeedCursorRoundTrip(t *testing.T) {
	s := encodeFeedCursor(1234)
	if got, err := decodeFeedCursor(s); err != nil || got != 1234 {
		t.Fatalf("decodeFeedCursor(%q) = %d, %v", s, got, err)
	}
	if got, err := decodeFeedCursor(""); got != 0 || err != nil {
		t.Fatalf("empty cursor: %d, %v", got, err)
	}
	for _, bad := range []string{"not base64!", "e30", "bnVsbA", "eyJiIjotMX0"} { // garbage, {}, null, {"b":-1}
		if _, err := decodeFeedCursor(bad); err == nil {
			t.Errorf("decodeFeedCursor(%q) accepted", bad)
		}
	}
}

func TestValidateNew(t *testing.T) {
	ok := Notification{ActionUser: user("a"), HeadlineTemplate: "h", BodyMessage: "b", NotifyAll: true}
	tests := []struct {
		name   string
		change func(*Notification)
		valid  bool
	}{
		{"complete", func(*Notification) {}, true},
		{"custom id", func(n *Notification) { n.ID = "my_id-1" }, true},
		{"id with a dot", func(n *Notification) { n.ID = "a.b" }, false},
		{"id with a slash", func(n *Notification) { n.ID = "a/b" }, false},
		{"no headline", func(n *Notification) { n.HeadlineTemplate = "" }, false},
		{"no body", func(n *Notification) { n.BodyMessage = "" }, false},
		{"resolver without display fields", func(n *Notification) { n.ResolverUsed, n.HeadlineTemplate, n.BodyMessage = true, "", "" }, true},
		{"nobody to notify", func(n *Notification) { n.NotifyAll = false }, false},
		{"only notifyUsers", func(n *Notification) { n.NotifyAll, n.NotifyUsers = false, []User{user("u")} }, true},
	}
	for _, tt := range tests {
		n := ok
		tt.change(&n)
		if err := validateNew(n); (err == nil) != tt.valid {
			t.Errorf("%s: validateNew = %v, want valid %v", tt.name, err, tt.valid)
		}
	}
}
