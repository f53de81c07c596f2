package webhook

import (
	"context"
	"errors"
	"fmt"

	"github.com/opencollab/backend/pkg/api"
)

// ConfigUpdate is a partial update: nil fields keep their stored value.
type ConfigUpdate struct {
	IsEnabled, EncryptData, EncodeData, EnableDataProtection *bool
	PublicKey                                                *string
}

func (u ConfigUpdate) empty() bool {
	return u.IsEnabled == nil && u.EncryptData == nil && u.EncodeData == nil &&
		u.EnableDataProtection == nil && u.PublicKey == nil
}

// UpdateConfig merges u onto the advanced webhook configuration and returns
// the result. The first update must carry isEnabled: true (it provisions
// delivery); a publicKey must be a base64 DER RSA key of at least 2048 bits
// and is required while encryptData is on.
func (s *Service) UpdateConfig(ctx context.Context, workspaceID string, u ConfigUpdate) (Config, error) {
	if err := s.requireAvailable(ctx, workspaceID); err != nil {
		return Config{}, err
	}
	if u.empty() {
		return Config{}, api.Errorf(api.InvalidArgument,
			"at least one of isEnabled, encryptData, encodeData, publicKey and enableDataProtection is required")
	}
	if u.PublicKey != nil {
		key, err := normalizePublicKey(*u.PublicKey)
		if err != nil {
			return Config{}, err
		}
		u.PublicKey = &key
	}
	if err := s.requireBox(); err != nil {
		return Config{}, err
	}
	// After the write, whatever its outcome: this replica's deliveries
	// follow the new configuration at once.
	defer s.ForgetTargets(workspaceID)
	for range maxSaveAttempts {
		stored, version, err := s.store.WebhookConfig(ctx, workspaceID)
		if errors.Is(err, ErrNotFound) {
			if u.IsEnabled == nil || !*u.IsEnabled {
				return Config{}, api.Errorf(api.FailedPrecondition,
					"the first advanced webhook configuration update must set isEnabled: true")
			}
			stored, version = Config{}, 0
		} else if err != nil {
			return Config{}, fmt.Errorf("read webhook config: %w", err)
		}
		next := mergeConfig(stored, u)
		if next.EncryptData && next.PublicKey == "" {
			return Config{}, api.Errorf(api.InvalidArgument, "field publicKey is required when encryptData is true")
		}
		err = s.store.SaveWebhookConfig(ctx, workspaceID, next, version)
		if errors.Is(err, ErrConflict) {
			continue
		}
		if err != nil {
			return Config{}, fmt.Errorf("save webhook config: %w", err)
		}
		return next, nil
	}
	return Config{}, errBusy
}

func mergeConfig(c Config, u ConfigUpdate) Config {
	setIf(&c.IsEnabled, u.IsEnabled)
	setIf(&c.EncryptData, u.EncryptData)
	setIf(&c.EncodeData, u.EncodeData)
	setIf(&c.EnableDataProtection, u.EnableDataProtection)
	setIf(&c.PublicKey, u.PublicKey)
	return c
}
