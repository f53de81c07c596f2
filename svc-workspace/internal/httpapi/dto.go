package httpapi

// Request and reply shapes. JSON names are the contract; LookupRequest and
// LookupResponse are mirrored by the gateway, which cannot import this module.

import "github.com/opencollab/backend/pkg/features"

type createWorkspaceRequest struct {
	Name string `json:"name" validate:"max=200"`
}

type createWorkspaceResponse struct {
	WorkspaceID string `json:"workspaceId"`
	APIKey      string `json:"apiKey"`
	AuthToken   string `json:"authToken"`
}

type createTokenRequest struct {
	APIKey string `json:"apiKey" validate:"required,max=256"`
}

type createTokenResponse struct {
	APIKey    string `json:"apiKey"`
	AuthToken string `json:"authToken"`
}

type resetTokenRequest struct {
	APIKey    string `json:"apiKey" validate:"required,max=256"`
	AuthToken string `json:"authToken" validate:"required,max=256"`
}

// LookupRequest is the body data of POST /internal/credentials/lookup.
type LookupRequest struct {
	APIKey string `json:"apiKey" validate:"required,max=256"`
}

// LookupResponse is result.data of POST /internal/credentials/lookup:
// the workspace an API key names and the hex SHA-256 of each live token.
type LookupResponse struct {
	WorkspaceID string   `json:"workspaceId"`
	TokenHashes []string `json:"tokenHashes"`
}

type updateFeaturesRequest struct {
	APIKey   string          `json:"apiKey" validate:"required,max=256"`
	Features map[string]bool `json:"features" validate:"required"`
}

type getFeaturesRequest struct {
	APIKey string `json:"apiKey" validate:"required,max=256"`
}

// featuresResponse is result.data of the operator's features operations:
// every feature with its effective value.
type featuresResponse struct {
	APIKey   string                 `json:"apiKey"`
	Features map[features.Name]bool `json:"features"`
}

// settingsRequest is the body data of features.SettingsPath; the reply is a
// features.SettingsResponse, the contract the services' feature checks read.
type settingsRequest struct {
	WorkspaceID string `json:"workspaceId" validate:"required,max=256"`
}
