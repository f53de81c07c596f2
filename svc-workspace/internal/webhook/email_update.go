package webhook

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/mail"
	"slices"

	"github.com/opencollab/backend/pkg/api"
)

// EmailUpdate is a partial update: nil fields keep their stored value.
type EmailUpdate struct {
	UseEmailService *bool
	Service         *EmailServiceUpdate // emailServiceConfig
}

// EmailServiceUpdate is the emailServiceConfig part of an update. Triggers
// are merged key by key onto the stored ones.
type EmailServiceUpdate struct {
	Type, APIKey, FromEmail, FromCompany, CommentTemplateID, TagTemplateID *string
	Triggers                                                               map[string]bool
}

func (u *EmailServiceUpdate) empty() bool {
	return u.Type == nil && u.APIKey == nil && u.FromEmail == nil && u.FromCompany == nil &&
		u.CommentTemplateID == nil && u.TagTemplateID == nil && u.Triggers == nil
}

// maxTriggers bounds the triggers map (every known event type fits).
const maxTriggers = 100

// UpdateEmailConfig merges u onto the stored configuration and returns the
// result as EmailConfig does. The first enable (useEmailService true or
// type custom) of a configuration without triggers seeds §11's defaults
// under the request's values.
func (s *Service) UpdateEmailConfig(ctx context.Context, workspaceID string, u EmailUpdate) (EmailConfig, error) {
	if err := validateEmailUpdate(u); err != nil {
		return EmailConfig{}, err
	}
	if err := s.requireBox(); err != nil {
		return EmailConfig{}, err
	}
	for range maxSaveAttempts {
		stored, version, err := s.store.EmailConfig(ctx, workspaceID)
		if errors.Is(err, ErrNotFound) {
			stored, version = defaultEmailConfig(), 0
		} else if err != nil {
			return EmailConfig{}, fmt.Errorf("read email config: %w", err)
		}
		next := s.mergeEmail(workspaceID, stored, u)
		err = s.store.SaveEmailConfig(ctx, workspaceID, next, version)
		if errors.Is(err, ErrConflict) {
			continue
		}
		if err != nil {
			return EmailConfig{}, fmt.Errorf("save email config: %w", err)
		}
		return next, nil
	}
	return EmailConfig{}, errBusy
}

func (s *Service) mergeEmail(workspaceID string, c EmailConfig, u EmailUpdate) EmailConfig {
	c.Triggers = maps.Clone(c.Triggers)
	if c.Triggers == nil {
		c.Triggers = map[string]bool{}
	}
	firstEnable := (u.UseEmailService != nil && *u.UseEmailService) ||
		(u.Service != nil && u.Service.Type != nil && *u.Service.Type == EmailTypeCustom)
	if firstEnable && len(c.Triggers) == 0 {
		c.UseEmailService, c.Type = true, EmailTypeCustom
		for _, t := range defaultTriggers {
			c.Triggers[t] = true
		}
	}
	if u.UseEmailService != nil {
		c.UseEmailService = *u.UseEmailService
	}
	if su := u.Service; su != nil {
		setIf(&c.Type, su.Type)
		setIf(&c.FromEmail, su.FromEmail)
		setIf(&c.FromCompany, su.FromCompany)
		setIf(&c.CommentTemplateID, su.CommentTemplateID)
		setIf(&c.TagTemplateID, su.TagTemplateID)
		maps.Copy(c.Triggers, su.Triggers)
		// A client that sends back the masked key it read means "keep it".
		if su.APIKey != nil && (c.APIKeySealed == "" || *su.APIKey != c.APIKeyMasked) {
			c.APIKeySealed, c.APIKeyMasked = "", ""
			if *su.APIKey != "" {
				c.APIKeySealed = s.box.Seal([]byte(*su.APIKey), apiKeyContext(workspaceID))
				c.APIKeyMasked = maskAPIKey(*su.APIKey)
			}
		}
	}
	return c
}

// setIf sets *dst to *v when v was sent.
func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

func validateEmailUpdate(u EmailUpdate) error {
	if u.UseEmailService == nil && u.Service == nil {
		return api.Errorf(api.InvalidArgument, "at least one of useEmailService and emailServiceConfig is required")
	}
	su := u.Service
	if su == nil {
		return nil
	}
	if su.empty() {
		return api.Errorf(api.InvalidArgument, "field emailServiceConfig must set at least one field")
	}
	if su.Type != nil && !slices.Contains([]string{EmailTypeDefault, EmailTypeSendGrid, EmailTypeCustom}, *su.Type) {
		return api.Errorf(api.InvalidArgument, "field emailServiceConfig.type has unknown value %q; allowed: default, sendgrid, custom", *su.Type)
	}
	if su.FromEmail != nil && *su.FromEmail != "" {
		if a, err := mail.ParseAddress(*su.FromEmail); err != nil || a.Address != *su.FromEmail {
			return api.Errorf(api.InvalidArgument, "field emailServiceConfig.fromEmail must be an email address")
		}
	}
	if len(su.Triggers) > maxTriggers {
		return api.Errorf(api.InvalidArgument, "field emailServiceConfig.triggers accepts at most %d items", maxTriggers)
	}
	for _, t := range slices.Sorted(maps.Keys(su.Triggers)) {
		if !IsEventType(t) {
			return api.Errorf(api.InvalidArgument, "field emailServiceConfig.triggers: unknown event type %q", t)
		}
	}
	return nil
}
