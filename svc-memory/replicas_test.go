package svcmemory_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/opencollab/backend/pkg/service/servicetest"
	svcmemory "github.com/opencollab/backend/svc-memory"
)

// Two replicas share the stores; each activity event reaches one of them
// (one consumer group), yet both must find every judgment by its words,
// and neither may keep finding a deleted one: the lexical index of the
// replica that did not consume the event follows the change feed.
func TestReplicasKeepLexicalIndexesFresh(t *testing.T) {
	t.Parallel()
	cfg := svcmemory.Config{Retrieval: "lexical"} // no vector leg to hide a stale lexical index
	a := newEnv(t, cfg)
	b := &env{Env: &servicetest.Env{Client: servicetest.Client{T: t}, DB: a.DB, Redis: a.Redis}, pub: a.pub} // a second replica
	b.start(cfg)
	a.waitFor("both replicas ready", func() bool { return ready(a) && ready(b) })

	now := time.Now()
	var acts []activity
	for i := range 12 {
		acts = append(acts, review(fmt.Sprintf("r%02d", i), "comment_annotation.reject", "o1", "d1", "ann1", "u1",
			fmt.Sprintf("zebra stripes unclear in figure %d", i), now.Add(-time.Duration(i)*time.Minute)))
	}
	a.ingest("ws1", 12, acts...)
	for _, e := range []*env{a, b} {
		e.waitFor("12 zebra judgments on each replica", func() bool { return zebras(e) == 12 })
	}

	a.publish("ws1", "activity.delete", acts[:5]...)
	a.waitIndexed("ws1", 7)
	for _, e := range []*env{a, b} {
		e.waitFor("7 zebra judgments on each replica", func() bool { return zebras(e) == 7 })
	}
}

func zebras(e *env) int {
	return len(e.search(ws1, map[string]any{"query": "zebra stripes", "limit": 50}).Results)
}

func ready(e *env) bool {
	rec := httptest.NewRecorder()
	e.H.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	return rec.Code == http.StatusOK
}
