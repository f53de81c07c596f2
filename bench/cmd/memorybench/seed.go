package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The seed: review activities of the kinds svc-memory turns into judgments
// (svc-memory/internal/judgment: approve → approved, reject → rejected,
// comment.add → comment, a status change to RESOLVED → resolve, agree,
// disagree, and rejections by an agent). Every generated activity is a
// decision, so N activities must become exactly N judgments; the
// reasoning is composed from parts so the embedder sees varied text
// rather than a handful of repeated sentences.

// subjects are what a review is about; queries draw on them too, so
// searches hit.
var subjects = []string{
	"the pricing table", "the hero image", "the headline copy", "the legal disclaimer",
	"the onboarding checklist", "the logo contrast", "the revenue chart", "the citation for the revenue claim",
	"the signup form", "the FAQ section", "the release notes", "the footer links",
	"the API example", "the dashboard screenshot", "the German translation", "the call-to-action button",
}

// details narrow a reasoning down.
var details = []string{
	"for the enterprise tier", "on mobile screens", "before the Q3 launch", "per the legal team",
	"after the rebrand", "for accessibility", "in the footer", "against the style guide",
	"for the annual plan", "in dark mode", "for the press release", "compared with last quarter",
}

// kind is one kind of review activity, with its share of the seed in
// percent and the sentences its reasoning starts with (%s: the subject).
type kind struct {
	actionType string
	status     string // changes.status.to of a status change
	agent      bool
	share      int
	phrases    []string
}

var kinds = []kind{
	{actionType: "comment_annotation.approve", share: 34, phrases: []string{
		"%s looks good", "%s matches the brief", "%s is accurate and ready to ship", "%s reads clearly"}},
	{actionType: "comment_annotation.reject", share: 28, phrases: []string{
		"%s is misleading", "%s does not match the spreadsheet", "%s needs a source", "%s has too little contrast"}},
	{actionType: "comment.add", share: 15, phrases: []string{
		"Can we revisit %s?", "Please double-check %s", "Should we shorten %s?"}},
	{actionType: "comment_annotation.status_change", status: "RESOLVED", share: 8, phrases: []string{
		"Fixed %s", "Updated %s as requested"}},
	{actionType: "comment_annotation.agree", share: 5, phrases: []string{"Agree, %s needs the change"}},
	{actionType: "comment_annotation.disagree", share: 4, phrases: []string{"Disagree, %s is fine as is"}},
	{actionType: "comment_annotation.reject", agent: true, share: 6, phrases: []string{
		"Typo in %s", "Broken link in %s"}},
}

const reviewers = 12

// batch is one /v2/activities/add call: one document, its records.
type batch struct {
	org, doc   string
	activities []map[string]any
}

// seed lays out n activities in calls of size per call, spread round-robin
// over orgs organizations of docs documents each. Seeded randomness: two
// runs with the same flags post the same data.
func seed(n, size, orgs, docs int) []batch {
	rng := rand.New(rand.NewPCG(5, uint64(n)))
	var out []batch
	for first := 0; first < n; first += size {
		i := len(out)
		b := batch{org: orgName(i % orgs), doc: fmt.Sprintf("mb-doc-%02d", (i/orgs)%docs)}
		for id := first; id < min(first+size, n); id++ {
			b.activities = append(b.activities, activity(rng, id))
		}
		out = append(out, b)
	}
	return out
}

func orgName(i int) string { return fmt.Sprintf("mb-org-%d", i) }

// activity is the id-th record: a review decision in the wire shape of
// /v2/activities/add. Three records share an annotation, so threads exist.
func activity(rng *rand.Rand, id int) map[string]any {
	k := pickKind(rng)
	subject := subjects[rng.IntN(len(subjects))]
	reasoning := fmt.Sprintf(k.phrases[rng.IntN(len(k.phrases))], subject)
	if rng.IntN(3) > 0 {
		reasoning += " " + details[rng.IntN(len(details))]
	}
	reasoning = strings.ToUpper(reasoning[:1]) + reasoning[1:]
	a := map[string]any{
		"id": fmt.Sprintf("mb-%06d", id), "featureType": "comment", "actionType": k.actionType,
		"targetEntityId":   fmt.Sprintf("mb-ann-%05d", id/3),
		"entityTargetData": map[string]any{"text": "Draft of " + subject, "contentType": "landing-page"},
	}
	if k.agent {
		// No comment text: the reasoning is the agent's reason block,
		// "title: description".
		a["actionUser"] = map[string]any{"userId": "spell-check", "name": "Spell Check", "type": "agent"}
		a["entityData"] = map[string]any{"agent": map[string]any{"agentId": "spell-check", "agentName": "Spell Check",
			"reason": map[string]any{"title": "Check", "description": reasoning, "confidence": 60 + rng.IntN(40)}}}
	} else {
		r := rng.IntN(reviewers)
		a["actionUser"] = map[string]any{"userId": fmt.Sprintf("rev-%02d", r), "name": fmt.Sprintf("Reviewer %d", r),
			"email": fmt.Sprintf("rev-%02d@example.com", r)}
		a["entityData"] = map[string]any{"commentText": reasoning}
	}
	if k.status != "" {
		a["changes"] = map[string]any{"status": map[string]any{
			"from": map[string]any{"id": "OPEN", "name": "Open", "type": "default"},
			"to":   map[string]any{"id": k.status, "name": k.status, "type": "terminal"},
		}}
	}
	return a
}

func pickKind(rng *rand.Rand) kind {
	total := 0
	for _, k := range kinds {
		total += k.share
	}
	r := rng.IntN(total)
	for _, k := range kinds {
		if r < k.share {
			return k
		}
		r -= k.share
	}
	return kinds[0]
}

// queryText is a search query as a user types it: a subject, sometimes
// with a verdict word or a detail.
func queryText(rng *rand.Rand) string {
	q := strings.TrimPrefix(subjects[rng.IntN(len(subjects))], "the ")
	switch rng.IntN(4) {
	case 0:
		q = "why was " + q + " rejected"
	case 1:
		q += " " + details[rng.IntN(len(details))]
	case 2:
		q += " approved"
	}
	return q
}
