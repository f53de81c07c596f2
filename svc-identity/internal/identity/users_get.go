package identity

import (
	"context"

	"github.com/opencollab/backend/pkg/api"
)

// UsersQuery is /v2/users/get.
type UsersQuery struct {
	Scope
	UserIDs         []string
	GroupIDs        []string
	AllDocuments    bool
	GroupByDocument bool
	PageSize        int
	PageToken       string
}

// UsersPage is one page of users/get.
type UsersPage struct {
	Users         []UserSummary            // in page order; set unless grouped
	ByDocument    map[string][]UserSummary // set when GroupByDocument
	NextPageToken string                   // "" on the last page
}

// usersFilter is the part of UsersQuery a page token is bound to.
type usersFilter struct {
	OrganizationID  string   `json:"o"`
	FolderID        string   `json:"f"`
	DocumentID      string   `json:"d"`
	UserIDs         []string `json:"u"`
	GroupIDs        []string `json:"g"`
	AllDocuments    bool     `json:"a"`
	GroupByDocument bool     `json:"b"`
}

func (q UsersQuery) validate() error {
	if err := q.Scope.validate(); err != nil {
		return err
	}
	if q.AllDocuments && !q.Scope.isOrganization() {
		return api.Errorf(api.InvalidArgument, "allDocuments covers every document; do not combine it with documentId or folderId")
	}
	if q.GroupByDocument && !q.AllDocuments {
		return api.Errorf(api.InvalidArgument, "groupByDocumentId applies only with allDocuments: true")
	}
	return nil
}

// GetUsers lists the members of the scope (or, with AllDocuments, the
// document-level members of every document of the organization), sorted by
// document id then user id, optionally narrowed to user ids and to members
// of user groups.
func (s *Service) GetUsers(ctx context.Context, ws string, q UsersQuery) (UsersPage, error) {
	if err := q.validate(); err != nil {
		return UsersPage{}, err
	}
	key := queryKey("users/get", usersFilter{
		OrganizationID: q.OrganizationID, FolderID: q.FolderID, DocumentID: q.DocumentID,
		UserIDs: q.UserIDs, GroupIDs: q.GroupIDs, AllDocuments: q.AllDocuments, GroupByDocument: q.GroupByDocument,
	})
	var after MemberCursor
	if err := s.loadCursor(ctx, ws, key, q.PageToken, &after); err != nil {
		return UsersPage{}, err
	}
	userIDs, err := s.usersFilter(ctx, ws, q)
	if err != nil {
		return UsersPage{}, err
	}
	if userIDs != nil && len(userIDs) == 0 {
		return newUsersPage(q, nil, nil), nil
	}
	limit := pageSize(q.PageSize)
	mq := q.memberQuery(userIDs, after, s.now().UnixMilli(), limit+1)
	members, err := s.store.ListMembers(ctx, ws, mq)
	if err != nil {
		return UsersPage{}, err
	}
	more := len(members) > limit
	if more {
		members = members[:limit]
	}
	profiles, err := s.store.GetUsers(ctx, ws, distinctUsers(members))
	if err != nil {
		return UsersPage{}, err
	}
	page := newUsersPage(q, members, profiles)
	if more {
		last := members[len(members)-1]
		page.NextPageToken, err = s.saveCursor(ctx, ws, key, MemberCursor{ResourceID: last.ResourceID, UserID: last.UserID})
		if err != nil {
			return UsersPage{}, err
		}
	}
	return page, nil
}

// usersFilter resolves userIds and organizationUserGroupIds into the users
// to list: nil means anyone, an empty slice means nobody.
func (s *Service) usersFilter(ctx context.Context, ws string, q UsersQuery) ([]string, error) {
	if len(q.GroupIDs) == 0 {
		if len(q.UserIDs) == 0 {
			return nil, nil
		}
		return q.UserIDs, nil
	}
	inGroups, err := s.store.ListGroupMembers(ctx, ws, q.OrganizationID, q.GroupIDs)
	if err != nil {
		return nil, err
	}
	if len(q.UserIDs) == 0 {
		return append([]string{}, inGroups...), nil
	}
	wanted := make(map[string]bool, len(q.UserIDs))
	for _, id := range q.UserIDs {
		wanted[id] = true
	}
	both := []string{}
	for _, id := range inGroups {
		if wanted[id] {
			both = append(both, id)
		}
	}
	return both, nil
}

func (q UsersQuery) memberQuery(userIDs []string, after MemberCursor, now int64, limit int) MemberQuery {
	mq := MemberQuery{OrganizationID: q.OrganizationID, UserIDs: userIDs, After: after, ActiveAt: now, Limit: limit}
	if q.AllDocuments {
		mq.Type = ResourceDocument
		return mq
	}
	k := q.Scope.key("")
	mq.Type, mq.ResourceID = k.Type, k.ResourceID
	return mq
}

func distinctUsers(ms []Membership) []string {
	seen := make(map[string]bool, len(ms))
	ids := make([]string, 0, len(ms))
	for _, m := range ms {
		if !seen[m.UserID] {
			seen[m.UserID] = true
			ids = append(ids, m.UserID)
		}
	}
	return ids
}

func newUsersPage(q UsersQuery, ms []Membership, profiles map[string]UserSummary) UsersPage {
	summary := func(userID string) UserSummary {
		u, ok := profiles[userID]
		if !ok {
			u = UserSummary{UserID: userID}
		}
		return u
	}
	if q.GroupByDocument {
		grouped := map[string][]UserSummary{}
		for _, m := range ms {
			grouped[m.ResourceID] = append(grouped[m.ResourceID], summary(m.UserID))
		}
		return UsersPage{ByDocument: grouped}
	}
	users := make([]UserSummary, 0, len(ms))
	for _, m := range ms {
		users = append(users, summary(m.UserID))
	}
	return UsersPage{Users: users}
}
