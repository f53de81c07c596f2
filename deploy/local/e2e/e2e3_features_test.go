package e2e

import (
	"fmt"
	"testing"
	"time"
)

// switchCacheWait bounds how long a service may answer from its cached
// switches (pkg/features caches them for about 5 s).
const switchCacheWait = 15 * time.Second

// TestFeatureSwitchesThroughGateway: the operator switches features off
// for one workspace; the operations behind them answer FAILED_PRECONDITION
// for that workspace only and write nothing; switched on again they work
// within the services' cache time.
func TestFeatureSwitchesThroughGateway(t *testing.T) {
	t.Parallel()
	s := sharedStack(t)
	const org = "acme"
	other := s.newWorkspace()
	// Switched off before the workspace's first request: no service has
	// cached its switches yet, so the change shows at once.
	s.e3SetFeatures(s.ws, map[string]bool{"activityService": false, "notificationConfig": false, "advancedQueries": false})

	s.ok("/v2/users/add", map[string]any{"organizationId": org, "users": userRefs("ann")})
	s.ok("/v1/notifications/add", e3NotificationIn(org, "d1", "n1", "ann", "bob"))
	s.e3AddAnnotations(s.ws, org, "d1", e3AnnotationIn("ann1", "", "ann", "x"))
	activity := map[string]any{"organizationId": org, "documentId": "d1", "activities": []any{e3ActivityIn("a1", "comment", "comment.add", "ann")}}
	configSet := map[string]any{"organizationId": org, "userIds": []string{"bob"}, "documentIds": []string{"d1"}, "config": map[string]any{"inbox": "NONE"}}
	configGet := map[string]any{"organizationId": org, "userId": "bob", "documentIds": []string{"d1"}}
	gated := []struct {
		feature, path string
		data          map[string]any
	}{
		{"activityService", "/v2/activities/add", activity},
		{"activityService", "/v2/activities/get", map[string]any{"organizationId": org}},
		{"activityService", "/v2/activities/update", map[string]any{"organizationId": org, "activities": []any{map[string]any{"id": "a1", "actionIcon": "x"}}}},
		{"activityService", "/v2/activities/delete", map[string]any{"organizationId": org, "activityIds": []string{"a1"}}},
		{"activityService", "/v2/activities/get", map[string]any{}}, // the switch is checked before the body
		{"notificationConfig", "/v1/notifications/config/set", configSet},
		{"notificationConfig", "/v2/notifications/config/set", configSet},
		{"notificationConfig", "/v1/notifications/config/get", configGet},
		{"notificationConfig", "/v2/notifications/config/get", configGet},
		{"advancedQueries", "/v2/users/get", map[string]any{"organizationId": org}},
		{"advancedQueries", "/v2/notifications/get", map[string]any{"organizationId": org, "documentId": "d1"}},
		{"advancedQueries", "/v2/commentannotations/get", map[string]any{"organizationId": org}},
		{"advancedQueries", "/v2/commentannotations/comments/get", map[string]any{"organizationId": org, "documentId": "d1", "annotationId": "ann1"}},
	}

	t.Run("off: FAILED_PRECONDITION for the workspace", func(t *testing.T) {
		for _, g := range gated {
			if r := s.call(g.path, g.data); r.Status() != "FAILED_PRECONDITION" || r.Code != 400 {
				t.Errorf("%s with %s off: got %d %s", g.path, g.feature, r.Code, r.Raw)
			}
		}
		// What is not behind a switch still works.
		s.ok("/v1/notifications/get", map[string]any{"organizationId": org})
		s.ok("/v2/crdt/add", map[string]any{"organizationId": org, "documentId": "d1", "editorId": "e1", "type": "text", "data": "x"})
	})

	t.Run("the other workspace keeps its features", func(t *testing.T) {
		s.okAs(other, "/v2/users/add", map[string]any{"organizationId": org, "users": userRefs("zed")})
		for _, g := range gated {
			if r := s.callAs(other, g.path, g.data); r.Status() == "FAILED_PRECONDITION" {
				t.Errorf("%s for another workspace: %s", g.path, r.Raw)
			}
		}
	})

	t.Run("on again: works within the cache time, nothing was written meanwhile", func(t *testing.T) {
		s.e3SetFeatures(s.ws, map[string]bool{"activityService": true, "notificationConfig": true, "advancedQueries": true})
		succeeds := func(path string, data map[string]any) func() string {
			return func() string {
				if r := s.call(path, data); r.Status() != "" {
					return fmt.Sprintf("%d %s", r.Code, r.Raw)
				}
				return ""
			}
		}
		e3Eventually(t, switchCacheWait, "activities/get after switching activityService on", succeeds("/v2/activities/get", map[string]any{"organizationId": org}))
		if ids := s.e3ActivityIDs(s.ws, org, nil); len(ids) != 0 {
			t.Fatalf("the refused activities/add wrote %v", ids)
		}
		e3Eventually(t, switchCacheWait, "config/get after switching notificationConfig on", succeeds("/v1/notifications/config/get", configGet))
		cfg := objects(t, s.ok("/v1/notifications/config/get", configGet))
		if len(cfg) != 1 || e3JSON(cfg[0]["config"]) != `{"email":"ALL","inbox":"ALL"}` {
			t.Fatalf("the refused config/set wrote: %v", cfg)
		}
		for _, g := range gated {
			if g.path == "/v2/activities/get" && len(g.data) == 0 {
				continue
			}
			e3Eventually(t, switchCacheWait, g.path+" after switching "+g.feature+" on", succeeds(g.path, g.data))
		}
		expectOK(t, s.call("/v2/activities/add", activity))
		if ids := s.e3ActivityIDs(s.ws, org, nil); len(ids) != 1 || ids[0] != "a1" {
			t.Fatalf("activities after switching on and adding: %v", ids)
		}
	})

	t.Run("off again after use: refused within the cache time", func(t *testing.T) {
		s.e3SetFeatures(s.ws, map[string]bool{"activityService": false})
		e3Eventually(t, switchCacheWait, "activities/get refused after switching activityService off", func() string {
			if r := s.call("/v2/activities/get", map[string]any{"organizationId": org}); r.Status() != "FAILED_PRECONDITION" {
				return fmt.Sprintf("%d %s", r.Code, r.Raw)
			}
			return ""
		})
		s.ok("/v1/notifications/config/get", configGet)
		expectUsers(t, s.ok("/v2/users/get", map[string]any{"organizationId": org}), "ann")
	})
}
