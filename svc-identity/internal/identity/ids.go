package identity

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// UserRef is the stable internal id reported for a user: the first 32 hex
// digits of sha256(workspaceId + userId).
func UserRef(ws, userID string) string { return shortHash(ws + userID) }

// organizationRef and groupRef add a kind so they never equal a UserRef.
func organizationRef(ws, orgID string) string {
	return shortHash(ws + "\x00organization\x00" + orgID)
}

func groupRef(ws, orgID, groupID string) string {
	return shortHash(ws + "\x00group\x00" + orgID + "\x00" + groupID)
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:32]
}

// Initials derives a user's initial from the first letters of the first and
// last word of name ("Ada Lovelace" → "AL", "cher" → "C"), or from the first
// letter of userID when name is blank.
func Initials(name, userID string) string {
	words := strings.Fields(name)
	switch len(words) {
	case 0:
		return firstUpper(strings.TrimSpace(userID))
	case 1:
		return firstUpper(words[0])
	default:
		return firstUpper(words[0]) + firstUpper(words[len(words)-1])
	}
}

func firstUpper(s string) string {
	r, _ := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return ""
	}
	return string(unicode.ToUpper(r))
}

// withInitial fills in a missing initial from the name being set; with
// neither, the stored initial stays (a new user gets its user id's).
func (p Profile) withInitial() Profile {
	if p.Initial == nil && p.Name != nil {
		initial := Initials(*p.Name, p.UserID)
		p.Initial = &initial
	}
	return p
}
