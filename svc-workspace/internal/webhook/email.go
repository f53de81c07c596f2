package webhook

import "strings"

// Email service types (§11 lists default and sendgrid; its first-enable
// rule sets custom, so custom is accepted too).
const (
	EmailTypeDefault  = "default"
	EmailTypeSendGrid = "sendgrid"
	EmailTypeCustom   = "custom"
)

// EmailConfig is the email service configuration of a workspace.
type EmailConfig struct {
	UseEmailService bool
	Type            string
	// APIKeySealed is the provider's API key sealed with the data key; it
	// never leaves the service. APIKeyMasked is what reads show of it,
	// computed when the key is written so a read needs no decryption.
	APIKeySealed string
	APIKeyMasked string
	FromEmail    string
	FromCompany  string
	// CommentTemplateID and TagTemplateID are provider template ids.
	CommentTemplateID string
	TagTemplateID     string
	// Triggers maps an event type to whether it sends email.
	Triggers map[string]bool
}

// defaultEmailConfig is what a workspace that never configured email reads.
func defaultEmailConfig() EmailConfig {
	return EmailConfig{Type: EmailTypeDefault, Triggers: map[string]bool{}}
}

// apiKeyContext binds a sealed email API key to its workspace.
func apiKeyContext(workspaceID string) string { return "email-api-key\x00" + workspaceID }

// maskedMinLen is the shortest key shown in part: shorter ones would give
// away most of themselves.
const maskedMinLen = 12

// maskAPIKey shows the first 3 and last 4 characters of a key, or only
// stars for a short one.
func maskAPIKey(key string) string {
	if key == "" {
		return ""
	}
	r := []rune(key)
	if len(r) < maskedMinLen {
		return strings.Repeat("*", 8)
	}
	return string(r[:3]) + "****" + string(r[len(r)-4:])
}
