package annotations

import (
	"crypto/sha256"
	"encoding/hex"
)

// Subscription is one entry of subscribedUsers: the user and how they came
// to follow the thread.
type Subscription struct {
	User User   `json:"user"`
	Type string `json:"type"` // "auto": author, commenter or mention
}

// subscribers are the users who follow a thread without having asked:
// everyone who wrote in it or was mentioned in it, keyed by a hash of the
// user id as the hosted product keys them. This service keeps no manual
// subscriptions, so unsubscribedUsers and subscribedGroups stay empty.
func (a *Annotation) subscribers() map[string]Subscription {
	out := map[string]Subscription{}
	add := func(u User) {
		if id := userID(u); id != "" {
			out[userIDHash(id)] = Subscription{User: u, Type: "auto"}
		}
	}
	add(a.From)
	for _, c := range a.Comments {
		add(c.From)
		for _, u := range c.To {
			add(u)
		}
	}
	return out
}

// userIDHash is a stable, opaque key for a user id.
func userIDHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:16])
}

// visibilityOrDefault is the stored visibility, or public for threads
// added without one (every thread has a visibility in the answer).
func visibilityOrDefault(cfg map[string]any) map[string]any {
	if cfg == nil {
		return map[string]any{"type": "public"}
	}
	return cfg
}
