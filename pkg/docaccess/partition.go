package docaccess

import (
	"fmt"
	"strings"
)

// Partition splits userIDs into those among withAccess (an answer of
// UsersWithAccess or OrganizationUsersWithAccess) and the others, each in
// the order of userIDs: the users a verifyUserPermissions add keeps, and
// those it leaves out or is refused for.
func Partition(userIDs, withAccess []string) (with, without []string) {
	has := make(map[string]bool, len(withAccess))
	for _, id := range withAccess {
		has[id] = true
	}
	for _, id := range userIDs {
		if has[id] {
			with = append(with, id)
		} else {
			without = append(without, id)
		}
	}
	return with, without
}

// MaxNamed is the most user ids NameUsers lists.
const MaxNamed = 10

// NameUsers lists ids for a message saying who has no access: the first
// MaxNamed of them, and how many more there are.
func NameUsers(ids []string) string {
	if len(ids) <= MaxNamed {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:MaxNamed], ", "), len(ids)-MaxNamed)
}
