package webhook

import (
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/opencollab/backend/pkg/api"
)

// EndpointSpec is the input of endpoint create. Nil slices were not sent.
type EndpointSpec struct {
	URL                   string
	Description, UID      *string
	FilterTypes, Channels []string
	Disabled              bool
	RateLimit             *int
	Metadata              map[string]string
}

// Patch is an optional field of a partial update: Set when it was sent,
// Value nil when it was sent as null (which clears it).
type Patch[T any] struct {
	Set   bool
	Value *T
}

// EndpointChanges is the input of endpoint update; nil pointers and unset
// patches keep the stored value. uid cannot change.
type EndpointChanges struct {
	URL                   *string
	Description           Patch[string]
	FilterTypes, Channels Patch[[]string]
	Disabled              *bool
	RateLimit             Patch[int]
	Metadata              Patch[map[string]string]
}

func (c EndpointChanges) empty() bool {
	return c.URL == nil && !c.Description.Set && !c.FilterTypes.Set && !c.Channels.Set &&
		c.Disabled == nil && !c.RateLimit.Set && !c.Metadata.Set
}

// Limits of endpoint fields.
const (
	maxURLLen         = 2048
	maxDescriptionLen = 1000
	maxUIDLen         = 256
	maxChannels       = 10
	maxChannelLen     = 128
	maxRateLimit      = 65535
	maxMetadataKeys   = 50
	maxMetadataKeyLen = 256
	maxMetadataValLen = 1024
)

var (
	uidPattern     = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)
	channelPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]+$`)
)

func invalid(format string, args ...any) error {
	return api.Errorf(api.InvalidArgument, format, args...)
}

// validateSpec checks a create request and returns it with filterTypes
// and channels deduplicated.
func validateSpec(sp EndpointSpec) (EndpointSpec, error) {
	if err := validateURL(sp.URL); err != nil {
		return sp, err
	}
	if sp.Description != nil {
		if err := validateDescription(*sp.Description); err != nil {
			return sp, err
		}
	}
	if sp.UID != nil && (*sp.UID == "" || len(*sp.UID) > maxUIDLen || !uidPattern.MatchString(*sp.UID)) {
		return sp, invalid("field uid must be 1 to %d characters of letters, digits, '.', '_' and '-'", maxUIDLen)
	}
	var err error
	if sp.FilterTypes != nil {
		if sp.FilterTypes, err = validateFilterTypes(sp.FilterTypes); err != nil {
			return sp, err
		}
	}
	if sp.Channels != nil {
		if sp.Channels, err = validateChannels(sp.Channels); err != nil {
			return sp, err
		}
	}
	if sp.RateLimit != nil {
		if err := validateRateLimit(*sp.RateLimit); err != nil {
			return sp, err
		}
	}
	return sp, validateMetadata(sp.Metadata)
}

// validateChanges is validateSpec for an update.
func validateChanges(ch EndpointChanges) (EndpointChanges, error) {
	if ch.empty() {
		return ch, invalid("at least one of url, description, filterTypes, channels, disabled, rateLimit and metadata is required")
	}
	if ch.URL != nil {
		if err := validateURL(*ch.URL); err != nil {
			return ch, err
		}
	}
	if v := ch.Description.Value; v != nil {
		if err := validateDescription(*v); err != nil {
			return ch, err
		}
	}
	if v := ch.FilterTypes.Value; v != nil {
		types, err := validateFilterTypes(*v)
		if err != nil {
			return ch, err
		}
		ch.FilterTypes.Value = &types
	}
	if v := ch.Channels.Value; v != nil {
		channels, err := validateChannels(*v)
		if err != nil {
			return ch, err
		}
		ch.Channels.Value = &channels
	}
	if v := ch.RateLimit.Value; v != nil {
		if err := validateRateLimit(*v); err != nil {
			return ch, err
		}
	}
	if v := ch.Metadata.Value; v != nil {
		if err := validateMetadata(*v); err != nil {
			return ch, err
		}
	}
	return ch, nil
}

func validateURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return invalid("field url is required")
	}
	if len(raw) > maxURLLen {
		return invalid("field url must be at most %d characters", maxURLLen)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return invalid("field url must be an absolute http or https URL with a host")
	}
	return nil
}

func validateDescription(d string) error {
	if len([]rune(d)) > maxDescriptionLen {
		return invalid("field description must be at most %d characters", maxDescriptionLen)
	}
	return nil
}

func validateFilterTypes(types []string) ([]string, error) {
	if len(types) == 0 {
		return nil, invalid("field filterTypes must not be empty; omit it to receive every event type")
	}
	for i, t := range types {
		if !IsEventType(t) {
			return nil, invalid("field filterTypes[%d]: unknown event type %q", i, t)
		}
	}
	return dedupe(types), nil
}

func validateChannels(channels []string) ([]string, error) {
	if len(channels) == 0 {
		return nil, invalid("field channels must not be empty; omit it to receive every channel")
	}
	channels = dedupe(channels)
	if len(channels) > maxChannels {
		return nil, invalid("field channels accepts at most %d items", maxChannels)
	}
	for i, c := range channels {
		if len(c) > maxChannelLen || !channelPattern.MatchString(c) {
			return nil, invalid("field channels[%d] must be 1 to %d characters of letters, digits, '.', '_', ':' and '-'", i, maxChannelLen)
		}
	}
	return channels, nil
}

func validateRateLimit(n int) error {
	if n < 1 || n > maxRateLimit {
		return invalid("field rateLimit must be a positive integer of at most %d", maxRateLimit)
	}
	return nil
}

func validateMetadata(m map[string]string) error {
	if len(m) > maxMetadataKeys {
		return invalid("field metadata accepts at most %d keys", maxMetadataKeys)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if len(k) > maxMetadataKeyLen || len(m[k]) > maxMetadataValLen {
			return invalid("field metadata.%s: keys are at most %d and values at most %d characters", k, maxMetadataKeyLen, maxMetadataValLen)
		}
	}
	return nil
}

// dedupe drops repeated values, keeping the first of each.
func dedupe(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
