package agents

import "slices"

// Builtin is a built-in agent: present in every workspace, identity fixed
// here; only its enabled state is stored per workspace.
type Builtin struct {
	ID          string
	Name        string
	Description string
	// EssentialDefault marks agents a workspace is expected to keep on.
	EssentialDefault bool
}

// builtinEnabledDefault is the state of a built-in agent a workspace never
// changed.
const builtinEnabledDefault = true

// Builtins are the built-in agents, in listing order (adjacent-operations
// §12).
var Builtins = []Builtin{
	{ID: "spell-check", Name: "Spell Check", Description: "Finds misspelled words and suggests corrections."},
	{ID: "grammar-check", Name: "Grammar Check", Description: "Finds grammar, punctuation and style errors."},
	{ID: "broken-links", Name: "Broken Links", Description: "Finds links that fail to load or redirect to error pages."},
	{ID: "pii-detection", Name: "PII Detection", Description: "Flags personally identifiable information such as names, e-mail addresses and phone numbers."},
	{ID: "profanity-filter", Name: "Profanity Filter", Description: "Flags profane, offensive or inappropriate language."},
	{ID: "sensitive-data", Name: "Sensitive Data", Description: "Flags secrets and confidential data such as API keys, credentials and internal figures."},
	{ID: "lighthouse", Name: "Lighthouse", Description: "Audits pages for performance, accessibility, best practices and SEO."},
	{ID: "accessibility-checker", Name: "Accessibility Checker", Description: "Finds accessibility issues such as missing alt text, low contrast and unlabeled controls."},
	{ID: "og-image-checker", Name: "OG Image Checker", Description: "Checks Open Graph and social preview metadata and images."},
	{ID: "lorem-ipsum", Name: "Lorem Ipsum", Description: "Finds leftover placeholder text."},
}

// builtin returns the built-in agent with id.
func builtin(id string) (Builtin, bool) {
	i := slices.IndexFunc(Builtins, func(b Builtin) bool { return b.ID == id })
	if i < 0 {
		return Builtin{}, false
	}
	return Builtins[i], true
}
