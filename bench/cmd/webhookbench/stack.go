package main

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"time"

	"github.com/opencollab/backend/deploy/local/benchkit"
	"github.com/opencollab/backend/deploy/local/system"
)

// stack is the embedded system with one webhook endpoint pointing at the
// receiver, and the client that calls its gateway as an API user does.
type stack struct {
	sys        *system.System
	stop       context.CancelFunc
	dir        string
	rcv        *receiver
	c          *benchkit.Client
	endpointID string
}

// errLost: an activity's webhook did not arrive within the wait.
var errLost = errors.New("webhook did not arrive in time")

// startStack starts the receiver and the system, and configures advanced
// webhooks through the gateway: enabled, one endpoint for activity.add
// (other event types would only add unmatched deliveries).
func startStack(ctx context.Context) (*stack, error) {
	dir, err := os.MkdirTemp("", "webhookbench")
	if err != nil {
		return nil, err
	}
	st := &stack{dir: dir}
	if st.rcv, err = startReceiver(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	// The system runs on its own context so close can stop it and wait
	// for it even when ctx has already ended.
	sysCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	st.stop = stop
	st.sys, err = system.Start(sysCtx, system.Options{
		DataDir: dir, GatewayAddr: "127.0.0.1:0",
		// The receiver is on loopback, which deliveries refuse by default.
		WebhookAllowPrivateTargets: true,
		// Warnings and errors of the services only: their request logs
		// would drown the progress lines.
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		st.stop()
		st.rcv.close()
		os.RemoveAll(dir)
		return nil, err
	}
	st.c = benchkit.NewClient(st.sys, 1, 30*time.Second)
	if err := st.configure(ctx); err != nil {
		st.close(ctx)
		return nil, err
	}
	return st, nil
}

func (st *stack) configure(ctx context.Context) error {
	if err := st.call(ctx, "/v2/workspace/advancedwebhookconfig/update", map[string]any{"isEnabled": true}, nil); err != nil {
		return err
	}
	var ep struct {
		ID string `json:"id"`
	}
	if err := st.call(ctx, "/v2/workspace/advancedwebhook/endpoints/create", map[string]any{
		"url": st.rcv.url, "filterTypes": []string{"activity.add"}, "description": "webhookbench receiver",
	}, &ep); err != nil {
		return err
	}
	st.endpointID = ep.ID
	var sec struct {
		Secret string `json:"secret"`
	}
	if err := st.call(ctx, "/v2/workspace/advancedwebhook/endpoints/secret/get", map[string]any{"endpointId": ep.ID}, &sec); err != nil {
		return err
	}
	return st.rcv.setSecret(sec.Secret)
}

// sample is one measured activity.
type sample struct {
	call  time.Duration // activities/add answered
	delay time.Duration // webhook arrived, from the same start
}

// one adds activity id through the gateway and waits for its webhook.
// The clock starts before the request is written, so the delay includes
// the whole gateway call, as a customer backend would see it.
func (st *stack) one(ctx context.Context, id string, wait time.Duration) (sample, error) {
	arrived := st.rcv.expect(id)
	defer st.rcv.forget(id)
	began := time.Now()
	err := st.call(ctx, "/v2/activities/add", map[string]any{
		"organizationId": "webhookbench", "documentId": "doc-1",
		"activities": []any{map[string]any{
			"id": id, "featureType": "custom", "actionType": "webhookbench.probe", "targetEntityId": id,
			"actionUser": map[string]any{"userId": "bench-user", "name": "Bench User", "email": "bench@example.com"},
		}},
	}, nil)
	if err != nil {
		return sample{}, err
	}
	s := sample{call: time.Since(began)}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case at := <-arrived:
		s.delay = at.Sub(began)
		return s, nil
	case <-t.C:
		return s, errLost
	case <-ctx.Done():
		return s, ctx.Err()
	}
}

// call is the client's Call decoding result.data into out (when not nil).
func (st *stack) call(ctx context.Context, path string, data, out any) error {
	if out == nil {
		return st.c.Call(ctx, path, data, nil)
	}
	var res struct {
		Data json.RawMessage `json:"data"`
	}
	if err := st.c.Call(ctx, path, data, &res); err != nil {
		return err
	}
	return json.Unmarshal(res.Data, out)
}

// close stops the system, waits for it, then closes the receiver (in that
// order, so no delivery is cut off mid-request) and removes the data.
func (st *stack) close(ctx context.Context) {
	st.stop()
	if err := st.sys.Wait(); err != nil {
		slog.WarnContext(ctx, "embedded stack stopped with an error", "error", err)
	}
	st.rcv.close()
	if err := os.RemoveAll(st.dir); err != nil {
		slog.WarnContext(ctx, "remove data directory", "dir", st.dir, "error", err)
	}
}
