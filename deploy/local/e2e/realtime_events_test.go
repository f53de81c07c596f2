package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/opencollab/backend/deploy/local/system"
	"github.com/opencollab/backend/svc-content/realtimetest"
)

// Realtime edits publish the crdt webhook event (debounced, the token's
// user as lastUpdatedBy, the session) and an activity record.
func TestRealtimeEditsPublishWebhookAndActivity(t *testing.T) {
	t.Parallel()
	s := startStack(t, func(o *system.Options) { o.WebhookAllowPrivateTargets = true })
	var mu sync.Mutex
	var bodies [][]byte
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(rcv.Close)
	if r := s.call("/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true}); r.Code != 200 {
		t.Fatalf("webhook config: %s", r.Raw)
	}
	if r := s.call("/v2/workspace/advancedwebhook/endpoints/create", map[string]any{"url": rcv.URL, "filterTypes": []string{"crdt.update_data"}}); r.Code != 200 {
		t.Fatalf("endpoint: %s", r.Raw)
	}
	const org, doc = "org-ev", "doc-ev"
	ada := s.userToken("ada", docGrant(org, doc, "editor"))
	realtimetest.Run(t, "write", map[string]any{"wsBase": s.wsBase(), "room": org + "/" + doc + "/ed1", "token": ada, "write": "hello"})

	var crdtData map[string]any
	e3Eventually(t, 30*time.Second, "the crdt webhook of the realtime edit", func() string {
		mu.Lock()
		defer mu.Unlock()
		for _, b := range bodies {
			var body struct {
				Event string `json:"event"`
				Data  struct {
					CRDTData map[string]any `json:"crdtData"`
				} `json:"data"`
			}
			if json.Unmarshal(b, &body) == nil && body.Event == "crdt.update_data" && body.Data.CRDTData["id"] == "ed1" {
				crdtData = body.Data.CRDTData
				return ""
			}
		}
		return "no crdt.update_data for ed1 yet"
	})
	if crdtData["lastUpdatedBy"] != "ada" || crdtData["sessionId"] == nil {
		t.Fatalf("crdtData %v: want lastUpdatedBy ada and a sessionId", crdtData)
	}
	// The activity record comes from another consumer of the same event,
	// which may lag the webhook's: waited for the same way.
	e3Eventually(t, 30*time.Second, "the crdt activity record of the realtime edit", func() string {
		if got := s.e3ActivityIDs(s.ws, org, map[string]any{"featureTypes": []string{"crdt"}}); len(got) == 0 {
			return "no crdt activity record yet"
		}
		return ""
	})
}
