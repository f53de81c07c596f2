package e2e

// e5Kind is one kind of seeded activity and the judgment it becomes.
type e5Kind struct {
	name        string
	featureType string
	actionType  string
	status      string // changes.status.to id of a status change
	decision    string // "" when the activity is no review decision
	reasons     []string
	content     string // entityTargetData.text
	contentType string // "" → the default, comment
	agent       bool   // decided by the spell-check agent
	reviewers   []int  // cycled; nil → the seed's rotation
	topic       string // what ask/suggest group it under
}

var (
	e5CopyContent = "Homepage headline: Ship reviews faster with the team"

	kindCopyApprove = e5Kind{name: "copy+", featureType: "comment", actionType: "comment_annotation.approve", decision: "approved",
		reasons: []string{"The copy is clear and concise", "Clear copy, reads well for customers", "Copy reads clearly, no jargon"},
		content: e5CopyContent, contentType: "landing-page", topic: "copy"}
	kindCopyReject = e5Kind{name: "copy-", featureType: "comment", actionType: "comment_annotation.reject", decision: "rejected",
		reasons: []string{"The copy rambles and buries the point", "Copy is too long, trim the intro paragraph"},
		content: e5CopyContent, contentType: "landing-page", topic: "copy"}
	kindPricingApprove = e5Kind{name: "pricing+", featureType: "comment", actionType: "comment_annotation.approve", decision: "approved",
		reasons: []string{"Pricing table matches the spreadsheet", "Pricing table is correct for the enterprise tier"}, topic: "pricing"}
	kindPricingReject = e5Kind{name: "pricing-", featureType: "comment", actionType: "comment_annotation.reject", decision: "rejected",
		reasons: []string{"Pricing table totals do not add up"}, topic: "pricing"}
	kindCitation = e5Kind{name: "citation", featureType: "comment", actionType: "comment_annotation.reject", decision: "rejected",
		reasons: []string{"Source citation missing for the revenue claim", "Revenue claim needs a source citation"}, topic: "citation"}
	kindOnboarding = e5Kind{name: "onboarding", featureType: "comment", actionType: "comment.add", decision: "comment",
		reasons: []string{"Can we add a link to the onboarding guide?", "Please link the onboarding guide from the FAQ",
			"Should the onboarding guide link open in a new tab?"}, topic: "onboarding"}
	kindAgentTypo = e5Kind{name: "agent-typo", featureType: "comment", actionType: "comment_annotation.reject", decision: "rejected",
		reasons: []string{"Typo: recieve should be receive"}, agent: true, topic: "typo"}
	kindResolve = e5Kind{name: "resolve", featureType: "comment", actionType: "comment_annotation.status_change", status: "RESOLVED",
		decision: "resolve", reasons: []string{"Fixed the typo in the heading"}, topic: "typo"}
	kindInProgress = e5Kind{name: "in-progress", featureType: "comment", actionType: "comment_annotation.status_change", status: "IN_PROGRESS",
		decision: "in_progress", reasons: []string{"Working on the new screenshots"}, topic: "screenshots"}
	kindDocApprove = e5Kind{name: "doc+", featureType: "custom", actionType: "document.approve", decision: "document_approved",
		reasons: []string{"Document is ready to ship"}, topic: "ship"}
	kindDocReject = e5Kind{name: "doc-", featureType: "custom", actionType: "document.reject", decision: "document_rejected",
		reasons: []string{"Not ready, waiting on final sign-off"}, topic: "ship"}
	kindEndorse = e5Kind{name: "endorse", featureType: "comment", actionType: "comment_annotation.endorse", decision: "endorse",
		reasons: []string{"Endorse the new onboarding checklist"}, topic: "onboarding"}
	kindLegal = e5Kind{name: "legal", featureType: "comment", actionType: "comment_annotation.reject", decision: "rejected",
		reasons:   []string{"Legal disclaimer is missing from the footer", "Footer lacks the legal disclaimer", "The legal disclaimer is outdated"},
		reviewers: []int{6, 7}, topic: "legal"}
	kindFavicon = e5Kind{name: "favicon", featureType: "comment", actionType: "comment_annotation.reject", decision: "rejected",
		reasons: []string{"Favicon looks blurry on retina screens"}, reviewers: []int{8}, topic: "favicon"}
	// The split of docA2: 6 rejections by 3 reviewers against 4 approvals
	// (one an agreement) by 2, and 2 comments that are no precedent.
	kindLogoReject = e5Kind{name: "logo-", featureType: "comment", actionType: "comment_annotation.reject", decision: "rejected",
		reasons: []string{"Logo contrast is too low against the header", "Low contrast on the logo, hard to see",
			"The logo fades into the dark header, contrast too low"}, reviewers: []int{1, 2, 3}, topic: "logo"}
	kindLogoApprove = e5Kind{name: "logo+", featureType: "comment", actionType: "comment_annotation.approve", decision: "approved",
		reasons:   []string{"Logo contrast passes the accessibility check", "Logo contrast is fine on the new header"},
		reviewers: []int{4, 5, 5}, topic: "logo"}
	kindLogoAgree = e5Kind{name: "logo-agree", featureType: "comment", actionType: "comment_annotation.agree", decision: "agree",
		reasons: []string{"Agree, logo contrast is fine on the new header"}, reviewers: []int{4}, topic: "logo"}
	kindLogoComment = e5Kind{name: "logo-comment", featureType: "comment", actionType: "comment.add", decision: "comment",
		reasons: []string{"Can we double-check the logo contrast?"}, topic: "logo"}

	// Activities that are no review decision: never a judgment.
	kindReaction     = e5Kind{name: "reaction", featureType: "reaction", actionType: "comment.reaction_add", reasons: []string{"Nice"}}
	kindThreadAdd    = e5Kind{name: "thread-add", featureType: "comment", actionType: "comment_annotation.add", reasons: []string{"New thread about the footer"}}
	kindCRDT         = e5Kind{name: "crdt", featureType: "crdt", actionType: "crdt.update_data"}
	kindReopen       = e5Kind{name: "reopen", featureType: "comment", actionType: "comment_annotation.status_change", status: "OPEN", reasons: []string{"Reopened"}}
	kindEditAComment = e5Kind{name: "comment-edit", featureType: "comment", actionType: "comment.update", reasons: []string{"Edited wording"}}
)
