package identity

// Messages of a denial by a disabled state (disablestate/update).
const (
	msgOrganizationDisabled = "Access to this organization is disabled."
	msgDocumentDisabled     = "Access to this document is disabled."
)

// disabled turns a decision into a denial when the organization is
// disabled, or when docOff says the document is: a disabled state turns
// every grant off, public access included, for permissions/get, user
// tokens and realtime sessions alike. The access type stays reported.
func (r resources) disabled(info PermInfo, docOff bool) PermInfo {
	msg := ""
	switch {
	case r.orgOff:
		msg = msgOrganizationDisabled
	case docOff:
		msg = msgDocumentDisabled
	default:
		return info
	}
	return PermInfo{AccessType: info.AccessType, Error: msg, ErrorCode: CodePermissionDenied}
}
