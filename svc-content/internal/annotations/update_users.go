package annotations

import (
	"fmt"
	"reflect"
	"strings"
)

// userRename is one item of update's updateUsers: every reference to the
// user from becomes a reference to the user to (§7.6). A customer sends it
// when a user's id or profile changed on their side (an account merge, a
// new email), so the annotations stop naming the old user.
type userRename struct {
	from string // the old userId
	to   User   // userId (required), name and email as given
}

// parseUpdateUsers validates updateUsers: each item has oldUser.userId and
// newUser.userId (non-blank strings); name and email, when given, are
// strings. One old user may be renamed once per request: two targets for
// one reference would leave the result to the order of the list.
func parseUpdateUsers(items []map[string]any) ([]userRename, error) {
	out := make([]userRename, 0, len(items))
	seen := map[string]bool{}
	for i, item := range items {
		path := fmt.Sprintf("updateUsers[%d]", i)
		oldUser, err := renameSide(item, path, "oldUser")
		if err != nil {
			return nil, err
		}
		newUser, err := renameSide(item, path, "newUser")
		if err != nil {
			return nil, err
		}
		from := oldUser["userId"].(string)
		if seen[from] {
			return nil, invalid("field %s.oldUser.userId %q is renamed twice", path, from)
		}
		seen[from] = true
		out = append(out, userRename{from: from, to: newUser})
	}
	return out, nil
}

// renameSide checks one side of a rename and returns its userId, name and
// email (other keys are not part of the rename).
func renameSide(item map[string]any, path, side string) (User, error) {
	p := path + "." + side
	u, ok := item[side].(map[string]any)
	if !ok {
		return nil, invalid("field %s is required and must be an object", p)
	}
	if err := requireStrings(u, p, "userId"); err != nil {
		return nil, err
	}
	out := User{"userId": u["userId"]}
	for _, k := range []string{"name", "email"} {
		v, present := u[k]
		if !present || v == nil {
			continue
		}
		s, ok := v.(string)
		if !ok {
			return nil, invalid("field %s.%s must be a string", p, k)
		}
		out[k] = s
	}
	return out, nil
}

// renameUsers rewrites a's references to the renamed users: the creator,
// the assignee, who resolved it and who changed its status, each comment's
// author, mentioned users, tagged contacts and {{userId}} mentions in its
// text, and the users of its reactions. It reports whether anything
// changed. Renames apply side by side: a reference is renamed at most once,
// by the id it had.
func renameUsers(a *Annotation, renames []userRename) bool {
	r := renamer{by: make(map[string]User, len(renames))}
	for _, rn := range renames {
		r.by[rn.from] = rn.to
	}
	r.user(&a.From)
	r.user(&a.AssignedTo)
	r.user(&a.ResolvedByUser)
	r.id(&a.ResolvedByUserID)
	r.id(&a.StatusUpdatedByUserID)
	for i := range a.Comments {
		r.comment(&a.Comments[i])
	}
	for i := range a.Reactions {
		for j := range a.Reactions[i].FromUsers {
			r.user(&a.Reactions[i].FromUsers[j].From)
		}
	}
	return r.changed
}

// renamer applies a set of renames and remembers whether one applied.
type renamer struct {
	by      map[string]User
	changed bool
}

func (r *renamer) comment(c *Comment) {
	r.user(&c.From)
	for i := range c.To {
		r.user(&c.To[i])
	}
	for _, tc := range c.TaggedUserContacts {
		id, _ := tc["userId"].(string)
		if to, ok := r.by[id]; ok && to["userId"] != id {
			tc["userId"] = to["userId"]
			r.changed = true
		}
		if contact, ok := tc["contact"].(map[string]any); ok {
			u := User(contact)
			r.user(&u)
			tc["contact"] = u
		}
	}
	c.CommentText = r.mentions(c.CommentText)
	c.CommentHTML = r.mentions(c.CommentHTML)
}

// user renames *u when it is a renamed user's: it takes the new userId,
// and the name and email the rename gives; the reference's other fields
// (a photo, a color) are kept. A new name recomputes the initial.
func (r *renamer) user(u *User) {
	to, ok := r.by[userID(*u)]
	if !ok {
		return
	}
	out := make(User, len(*u)+len(to))
	for k, v := range *u {
		out[k] = v
	}
	for k, v := range to {
		out[k] = v
	}
	if _, named := to["name"]; named {
		delete(out, "initial")
	}
	out = normalizeUser(out)
	if !reflect.DeepEqual(out, *u) {
		*u, r.changed = out, true
	}
}

func (r *renamer) id(id *string) {
	if to, ok := r.by[*id]; ok && to["userId"] != *id {
		*id, r.changed = to["userId"].(string), true
	}
}

// mentions rewrites {{userId}} mentions of renamed users in s.
func (r *renamer) mentions(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	out := mentionPattern.ReplaceAllStringFunc(s, func(m string) string {
		id := m[2 : len(m)-2]
		to, ok := r.by[id]
		if !ok || to["userId"] == id {
			return m
		}
		r.changed = true
		return "{{" + to["userId"].(string) + "}}"
	})
	return out
}
