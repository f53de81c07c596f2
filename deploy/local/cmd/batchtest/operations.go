package main

import "fmt"

// operation is one batch request at its limit; body builds it anew for
// each call (the same content).
type operation struct {
	path, size string
	body       func() map[string]any
}

const org = "org-batch"

func user(id string) map[string]any {
	return map[string]any{"userId": id, "name": "User " + id, "email": id + "@example.com"}
}

// list is n items made by item from 0 to n-1.
func list(n int, item func(i int) any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = item(i)
	}
	return out
}

func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%04d", prefix, i)
	}
	return out
}

// operations are in an order where each finds what it needs: the
// organization, its folders, documents and users, before the deletes.
func operations() []operation {
	docs, users := ids("d", 1000), ids("u", 1000)
	return []operation{
		{"/v2/organizations/add", "100 organizations", func() map[string]any {
			return map[string]any{"organizations": list(100, func(i int) any {
				return map[string]any{"organizationId": fmt.Sprintf("o%03d", i), "organizationName": fmt.Sprintf("Org %d", i)}
			})}
		}},
		{"/v2/organizations/folders/add", "1,000 folders", func() map[string]any {
			return map[string]any{"organizationId": org, "createOrganization": true, "folders": list(1000, func(i int) any {
				return map[string]any{"folderId": fmt.Sprintf("f%04d", i)}
			})}
		}},
		{"/v2/organizations/documents/add", "1,000 documents", func() map[string]any {
			return map[string]any{"organizationId": org, "documents": list(1000, func(i int) any {
				return map[string]any{"documentId": docs[i], "documentName": "Document " + docs[i]}
			})}
		}},
		{"/v2/organizations/documents/update", "1,000 documents", func() map[string]any {
			return map[string]any{"organizationId": org, "documents": list(1000, func(i int) any {
				return map[string]any{"documentId": docs[i], "documentName": "Renamed " + docs[i]}
			})}
		}},
		{"/v2/users/add", "1,000 users", func() map[string]any {
			return map[string]any{"organizationId": org, "users": list(1000, func(i int) any { return user(users[i]) })}
		}},
		{"/v2/users/update", "1,000 users, each a new name and role", func() map[string]any {
			return map[string]any{"organizationId": org, "users": list(1000, func(i int) any {
				return map[string]any{"userId": users[i], "name": "Renamed " + users[i], "accessRole": "viewer"}
			})}
		}},
		{"/v2/organizations/usergroups/add", "1,000 groups", func() map[string]any {
			return map[string]any{"organizationId": org, "organizationUserGroups": list(1000, func(i int) any {
				return map[string]any{"groupId": fmt.Sprintf("g%04d", i), "groupName": fmt.Sprintf("Group %d", i)}
			})}
		}},
		{"/v2/organizations/usergroups/users/add", "1,000 users", func() map[string]any {
			return map[string]any{"organizationId": org, "organizationUserGroupId": "g0000", "userIds": users}
		}},
		{"/v2/auth/permissions/add", "100 documents", func() map[string]any {
			return map[string]any{"user": map[string]any{"userId": "perm-user"}, "permissions": map[string]any{"resources": list(100, func(i int) any {
				return map[string]any{"type": "document", "id": docs[i], "organizationId": org, "accessRole": "viewer"}
			})}}
		}},
		{"/v2/auth/permissions/remove", "100 documents", func() map[string]any {
			return map[string]any{"userId": "perm-user", "permissions": map[string]any{"resources": list(100, func(i int) any {
				return map[string]any{"type": "document", "id": docs[i], "organizationId": org}
			})}}
		}},
		annotations("100 annotations × 100 comments, 2 authors", "a", func(i, j int) string { return fmt.Sprintf("author%d", j%2) }),
		annotations("100 annotations × 100 comments, every comment a new author", "b", func(i, j int) string { return fmt.Sprintf("c%02d-%02d", i, j) }),
		{"/v2/activities/add", "500 activities", func() map[string]any {
			return map[string]any{"organizationId": org, "documentId": docs[0], "activities": list(500, func(i int) any {
				return map[string]any{"id": fmt.Sprintf("act%03d", i), "featureType": "comment", "actionType": "comment.add",
					"actionUser": user(users[i]), "targetEntityId": fmt.Sprintf("t%d", i)}
			})}
		}},
		notification("1,000 notifyUsers", "n-batch", users),
		notification("1,000 notifyUsers who have a feed already", "n-batch-2", users),
		{"/v2/users/delete", "1,000 users", func() map[string]any {
			return map[string]any{"organizationId": org, "userIds": users}
		}},
		{"/v2/organizations/documents/delete", "1,000 documents", func() map[string]any {
			return map[string]any{"organizationId": org, "documentIds": docs}
		}},
		{"/v2/organizations/delete", "100 organizations", func() map[string]any {
			return map[string]any{"organizationIds": list(100, func(i int) any { return fmt.Sprintf("o%03d", i) })}
		}},
	}
}

// annotations is commentannotations/add of 100 annotations of 100
// comments each, by author(i, j).
func annotations(size, prefix string, author func(i, j int) string) operation {
	return operation{"/v2/commentannotations/add", size, func() map[string]any {
		return map[string]any{"organizationId": org, "documentId": "d0000", "commentAnnotations": list(100, func(i int) any {
			return map[string]any{"annotationId": fmt.Sprintf("%s%03d", prefix, i), "commentData": list(100, func(j int) any {
				a := author(i, j)
				return map[string]any{"commentText": "hi " + a, "commentHtml": "<p>hi</p>", "from": user(a)}
			})}
		})}
	}}
}

// notification is notifications/add of notification id for every user
// of users.
func notification(size, id string, users []string) operation {
	return operation{"/v2/notifications/add", size, func() map[string]any {
		return map[string]any{"organizationId": org, "documentId": "d0000", "notificationId": id,
			"actionUser": user("sender"), "notificationSource": "custom", "displayHeadlineMessageTemplate": "Batch", "displayBodyMessage": "A batch",
			"notifyUsers": list(len(users), func(i int) any { return user(users[i]) })}
	}}
}
