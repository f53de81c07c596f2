package svcworkspace_test

import (
	"context"
	"encoding/base64"
	"maps"
	"net/http"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/opencollab/backend/pkg/internalauth"
	svcworkspace "github.com/opencollab/backend/svc-workspace"
)

const (
	emailGet    = "/v2/workspace/emailconfig/get"
	emailUpdate = "/v2/workspace/emailconfig/update"
)

// testDataKey is a DATA_ENCRYPTION_KEY for the tests.
var testDataKey = base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))

type emailReply struct {
	UseEmailService    bool `json:"useEmailService"`
	EmailServiceConfig struct {
		Type              string          `json:"type"`
		APIKey            string          `json:"apiKey"`
		FromEmail         string          `json:"fromEmail"`
		FromCompany       string          `json:"fromCompany"`
		CommentTemplateID string          `json:"commentTemplateId"`
		TagTemplateID     string          `json:"tagTemplateId"`
		Triggers          map[string]bool `json:"triggers"`
	} `json:"emailServiceConfig"`
}

// newKeyedEnv is an env whose service has a data encryption key, with one
// workspace; it returns the env and the workspace's principal.
func newKeyedEnv(t *testing.T) (*env, string) {
	t.Helper()
	e := newEnv(t, svcworkspace.Config{DataEncryptionKey: testDataKey})
	return e, internalauth.Workspace(e.createWorkspace(nil).WorkspaceID)
}

func (e *env) email(ws string) emailReply {
	e.T.Helper()
	var r emailReply
	e.OK(ws, emailGet, map[string]any{}, &r)
	return r
}

func defaultEmail() emailReply {
	var r emailReply
	r.EmailServiceConfig.Type = "default"
	r.EmailServiceConfig.Triggers = map[string]bool{}
	return r
}

func sameEmail(a, b emailReply) bool {
	return a.UseEmailService == b.UseEmailService && maps.Equal(a.EmailServiceConfig.Triggers, b.EmailServiceConfig.Triggers) &&
		a.EmailServiceConfig.Type == b.EmailServiceConfig.Type && a.EmailServiceConfig.APIKey == b.EmailServiceConfig.APIKey &&
		a.EmailServiceConfig.FromEmail == b.EmailServiceConfig.FromEmail && a.EmailServiceConfig.FromCompany == b.EmailServiceConfig.FromCompany &&
		a.EmailServiceConfig.CommentTemplateID == b.EmailServiceConfig.CommentTemplateID &&
		a.EmailServiceConfig.TagTemplateID == b.EmailServiceConfig.TagTemplateID
}

func TestEmailConfigDefaults(t *testing.T) {
	t.Parallel()
	e, ws := newKeyedEnv(t)
	for _, body := range []any{nil, map[string]any{}} {
		var r emailReply
		e.OK(ws, emailGet, body, &r)
		if !sameEmail(r, defaultEmail()) {
			t.Fatalf("never configured: %+v, want the defaults", r)
		}
	}
	// The operator and other services cannot read it: it is the workspace's.
	e.Fails(internalauth.Operator, emailGet, nil, http.StatusForbidden, "PERMISSION_DENIED")
	e.Fails(gateway, emailGet, nil, http.StatusForbidden, "PERMISSION_DENIED")
}

func TestEmailConfigUpdateMergesAndMasks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, ws := newKeyedEnv(t)
	other := internalauth.Workspace(e.createWorkspace(nil).WorkspaceID)
	const apiKey = "SG.abcdefghijklmnopqrstu-wxyz"

	// The first enable seeds §11's defaults.
	var got emailReply
	e.OK(ws, emailUpdate, map[string]any{"useEmailService": true}, &got)
	want := defaultEmail()
	want.UseEmailService = true
	want.EmailServiceConfig.Type = "custom"
	want.EmailServiceConfig.Triggers = map[string]bool{
		"comment_annotation.add": true, "comment_annotation.assign": true, "comment_annotation.status_change": true,
		"comment_annotation.priority_change": true, "comment.add": true, "huddle.create": true, "huddle.join": true,
	}
	if !sameEmail(got, want) {
		t.Fatalf("first enable: %+v, want %+v", got, want)
	}

	// A partial update merges, triggers key by key; the key comes back masked.
	e.OK(ws, emailUpdate, map[string]any{"emailServiceConfig": map[string]any{
		"type": "sendgrid", "apiKey": apiKey, "fromEmail": "noreply@acme.test", "commentTemplateId": "d-1",
		"triggers": map[string]any{"comment.add": false, "comment.reaction_add": true},
	}}, &got)
	want.EmailServiceConfig.Type, want.EmailServiceConfig.APIKey = "sendgrid", "SG.****wxyz"
	want.EmailServiceConfig.FromEmail, want.EmailServiceConfig.CommentTemplateID = "noreply@acme.test", "d-1"
	want.EmailServiceConfig.Triggers["comment.add"] = false
	want.EmailServiceConfig.Triggers["comment.reaction_add"] = true
	if !sameEmail(got, want) {
		t.Fatalf("merge: %+v, want %+v", got, want)
	}
	if r := e.email(ws); !sameEmail(r, want) {
		t.Fatalf("get after update: %+v, want %+v", r, want)
	}

	// The key is stored sealed: nowhere in the record in clear.
	raw := emailDoc(t, e, ws)
	sealed, _ := raw["apiKeySealed"].(string)
	if !strings.HasPrefix(sealed, "v1:") || strings.Contains(rawString(t, raw), "abcdefghijklmnopqrstu") {
		t.Fatalf("stored record exposes the key: %v", raw)
	}

	// Sending back the masked key keeps the stored one.
	e.OK(ws, emailUpdate, map[string]any{"emailServiceConfig": map[string]any{"apiKey": "SG.****wxyz", "fromCompany": "Acme"}}, &got)
	want.EmailServiceConfig.FromCompany = "Acme"
	if !sameEmail(got, want) || emailDoc(t, e, ws)["apiKeySealed"] != sealed {
		t.Fatalf("masked key sent back replaced the key: %+v", got)
	}
	// A short key is all stars; an empty one clears it.
	e.OK(ws, emailUpdate, map[string]any{"emailServiceConfig": map[string]any{"apiKey": "short"}}, &got)
	if got.EmailServiceConfig.APIKey != "********" {
		t.Fatalf("short key shown as %q", got.EmailServiceConfig.APIKey)
	}
	e.OK(ws, emailUpdate, map[string]any{"emailServiceConfig": map[string]any{"apiKey": ""}, "useEmailService": false}, &got)
	if got.EmailServiceConfig.APIKey != "" || got.UseEmailService || got.EmailServiceConfig.Type != "sendgrid" {
		t.Fatalf("after clearing the key: %+v", got)
	}
	if _, ok := emailDoc(t, e, ws)["apiKeySealed"]; ok {
		t.Fatal("cleared key still stored")
	}

	// Another workspace is untouched.
	if r := e.email(other); !sameEmail(r, defaultEmail()) {
		t.Fatalf("other workspace: %+v", r)
	}
	if n, _ := e.DB.Collection("email_configs").CountDocuments(ctx, bson.M{}); n != 1 {
		t.Fatalf("%d email config records, want 1", n)
	}
}

func TestEmailConfigInvalidArgument(t *testing.T) {
	t.Parallel()
	e, ws := newKeyedEnv(t)
	tests := []struct {
		name  string
		data  any
		field string
	}{
		{"nothing sent", map[string]any{}, "useEmailService"},
		{"empty emailServiceConfig", map[string]any{"emailServiceConfig": map[string]any{}}, "emailServiceConfig"},
		{"unknown type", map[string]any{"emailServiceConfig": map[string]any{"type": "mailgun"}}, "type"},
		{"bad fromEmail", map[string]any{"emailServiceConfig": map[string]any{"fromEmail": "not an address"}}, "fromEmail"},
		{"unknown trigger", map[string]any{"emailServiceConfig": map[string]any{"triggers": map[string]any{"comment.teleport": true}}}, "comment.teleport"},
		{"trigger not boolean", map[string]any{"emailServiceConfig": map[string]any{"triggers": map[string]any{"comment.add": "yes"}}}, "triggers"},
		{"useEmailService not boolean", map[string]any{"useEmailService": "yes"}, "useEmailService"},
		{"$ key in triggers", map[string]any{"emailServiceConfig": map[string]any{"triggers": map[string]any{"$set": true}}}, "$"},
		{"apiKey too long", map[string]any{"emailServiceConfig": map[string]any{"apiKey": strings.Repeat("k", 1025)}}, "apiKey"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e.Fails(ws, emailUpdate, tt.data, http.StatusBadRequest, "INVALID_ARGUMENT")
			if !strings.Contains(r.Error.Message, tt.field) {
				t.Fatalf("message %q does not name %s", r.Error.Message, tt.field)
			}
		})
	}
	if n, _ := e.DB.Collection("email_configs").CountDocuments(context.Background(), bson.M{}); n != 0 {
		t.Fatalf("invalid updates stored %d records", n)
	}
}

func TestEmailConfigWithoutDataKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t, svcworkspace.Config{})
	ws := internalauth.Workspace(e.createWorkspace(nil).WorkspaceID)
	if r := e.email(ws); !sameEmail(r, defaultEmail()) {
		t.Fatalf("defaults without a key: %+v", r)
	}
	r := e.Fails(ws, emailUpdate, map[string]any{"useEmailService": true}, http.StatusBadRequest, "FAILED_PRECONDITION")
	if !strings.Contains(r.Error.Message, "DATA_ENCRYPTION_KEY") {
		t.Fatalf("message %q does not name DATA_ENCRYPTION_KEY", r.Error.Message)
	}
}

func emailDoc(t *testing.T, e *env, principal string) bson.M {
	t.Helper()
	id, _ := internalauth.WorkspaceOf(principal)
	var doc bson.M
	if err := e.DB.Collection("email_configs").FindOne(context.Background(), bson.M{"_id": id}).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// rawString renders a stored record for searching it.
func rawString(t *testing.T, doc bson.M) string {
	t.Helper()
	b, err := bson.MarshalExtJSON(doc, false, false)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
