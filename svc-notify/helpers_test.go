package svcnotify_test

import (
	"encoding/json"
)

type body = map[string]any

func user(id string) body { return body{"userId": id, "name": "User " + id} }

// note is an add body of org o1, document d1, acted by "actor", sent to
// the whole organization unless opts say otherwise.
func note(id string, opts ...func(body)) body {
	b := body{
		"organizationId": "o1", "documentId": "d1", "notificationId": id, "actionUser": user("actor"),
		"displayHeadlineMessageTemplate": "{actionUser} mentioned {recipientUser}",
		"displayBodyMessage":             "Body of " + id,
	}
	for _, o := range opts {
		o(b)
	}
	return b
}

// only sends the notification to these users instead of everyone.
func only(ids ...string) func(body) {
	return func(b body) {
		users := make([]body, len(ids))
		for i, id := range ids {
			users[i] = user(id)
		}
		b["notifyAll"], b["notifyUsers"] = false, users
	}
}

func recipient(v any) func(body) {
	return func(b body) {
		b["displayHeadlineMessageTemplateData"] = body{"actionUser": user("actor"), "recipientUser": v}
	}
}

func set(key string, v any) func(body) { return func(b body) { b[key] = v } }

func (e *env) add(principal string, notes ...body) {
	e.T.Helper()
	for _, n := range notes {
		var res struct {
			Success bool   `json:"success"`
			Message string `json:"message"`
		}
		e.OK(principal, "/v1/notifications/add", n, &res)
		if !res.Success || res.Message == "" {
			e.T.Fatalf("add answered %+v", res)
		}
	}
}

// record is a returned notification, free-form fields raw.
type record struct {
	ID                                 string          `json:"id"`
	NotificationSource                 string          `json:"notificationSource"`
	NotificationSourceData             json.RawMessage `json:"notificationSourceData"`
	ActionUser                         json.RawMessage `json:"actionUser"`
	DisplayHeadlineMessageTemplate     string          `json:"displayHeadlineMessageTemplate"`
	DisplayHeadlineMessageTemplateData json.RawMessage `json:"displayHeadlineMessageTemplateData"`
	DisplayBodyMessage                 string          `json:"displayBodyMessage"`
	Metadata                           struct {
		OrganizationID string `json:"organizationId"`
		DocumentID     string `json:"documentId"`
		LocationID     string `json:"locationId"`
	} `json:"metadata"`
	NotifyUsers         map[string]bool `json:"notifyUsers"`
	NotifyUsersByUserID map[string]bool `json:"notifyUsersByUserId"`
	Timestamp           int64           `json:"timestamp"`
	IsRead              *bool           `json:"isRead"`
}

// get returns one page and its next token ("" on the last page or on v1).
func (e *env) get(principal, path string, q body) ([]record, string) {
	e.T.Helper()
	var page []record
	r := e.OK(principal, path, q, &page)
	if page == nil {
		e.T.Fatalf("get: data %s is not an array", r.Result.Data)
	}
	if r.Result.PageToken == nil {
		return page, ""
	}
	return page, *r.Result.PageToken
}

func (e *env) getIDs(principal, path string, q body) []string {
	e.T.Helper()
	page, _ := e.get(principal, path, q)
	return ids(page)
}

func ids(rs []record) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

type itemResult struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

func (e *env) batch(principal, path string, data body) map[string]itemResult {
	e.T.Helper()
	var out map[string]itemResult
	e.OK(principal, path, data, &out)
	return out
}

func successes(res map[string]itemResult) map[string]bool {
	out := make(map[string]bool, len(res))
	for id, r := range res {
		out[id] = r.Success
		if r.Message == "" {
			panic("item result without a message: " + id)
		}
	}
	return out
}
