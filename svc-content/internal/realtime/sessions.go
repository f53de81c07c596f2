package realtime

import (
	"context"
	"sync"
	"time"
	"unique"
)

// sessions index the open members by user, so that access can be decided
// anew: for everybody every AccessRecheck, and at once for a user whose
// grants were removed (identity's events). Members sharing a token and a
// document are decided once.
type sessions struct {
	hub *Hub
	mu  sync.Mutex
	// byUser: workspace + user → the members and the token each came with.
	// A token is kept once however many sessions came with it (a user's
	// tabs, a Hocuspocus socket's documents): a copy per session was a few
	// hundred bytes each.
	byUser map[userKey]map[*member]unique.Handle[string]
}

type userKey struct{ workspace, user string }

func newSessions(h *Hub) *sessions {
	return &sessions{hub: h, byUser: map[userKey]map[*member]unique.Handle[string]{}}
}

func (s *sessions) add(m *member, token string) {
	g := m.currentGrant()
	k := userKey{g.Workspace, g.UserID}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byUser[k] == nil {
		s.byUser[k] = map[*member]unique.Handle[string]{}
	}
	s.byUser[k][m] = unique.Make(token)
}

func (s *sessions) remove(m *member) {
	g := m.currentGrant()
	k := userKey{g.Workspace, g.UserID}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.byUser[k], m)
	if len(s.byUser[k]) == 0 {
		delete(s.byUser, k)
	}
}

// setToken records a refreshed token (Hocuspocus token sync).
func (s *sessions) setToken(m *member, token string) {
	g := m.currentGrant()
	s.mu.Lock()
	defer s.mu.Unlock()
	if ms := s.byUser[userKey{g.Workspace, g.UserID}]; ms != nil {
		if _, ok := ms[m]; ok {
			ms[m] = unique.Make(token)
		}
	}
}

// recheckAll decides every open session anew.
func (s *sessions) recheckAll() {
	s.mu.Lock()
	users := make([]userKey, 0, len(s.byUser))
	for k := range s.byUser {
		users = append(users, k)
	}
	s.mu.Unlock()
	for _, k := range users {
		s.recheckUser(k.workspace, k.user)
	}
}

// recheckUser decides the sessions of one user anew and ends those the
// user may no longer open; a lowered role applies at once.
func (s *sessions) recheckUser(workspace, user string) {
	type question struct{ token, org, doc string }
	s.mu.Lock()
	asked := map[question][]*member{}
	for m, token := range s.byUser[userKey{workspace, user}] {
		q := question{token.Value(), m.key.Org, m.key.Doc}
		asked[q] = append(asked[q], m)
	}
	s.mu.Unlock()
	for q, members := range asked {
		ctx, cancel := context.WithTimeout(s.hub.ctx, accessTimeout)
		g, err := s.hub.access.Check(ctx, q.token, q.org, q.doc)
		cancel()
		for _, m := range members {
			s.apply(m, g, err)
		}
	}
}

// accessTimeout bounds one access decision.
const accessTimeout = 10 * time.Second

func (s *sessions) apply(m *member, g Grant, err error) {
	if d, ok := asDenial(err); ok {
		code := CloseForbidden
		if d.Unauthenticated {
			code = CloseUnauthorized
		}
		m.end(code, d.Reason)
		return
	}
	if err != nil {
		// Identity unreachable: keep the session; the next round decides.
		s.hub.logger.Warn("realtime: access re-check failed", "error", err)
		return
	}
	if !g.ExpiresAt.IsZero() && time.Now().After(g.ExpiresAt) {
		m.end(CloseUnauthorized, "token expired")
		return
	}
	m.setGrant(g)
}
