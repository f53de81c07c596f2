package realtime

// WebSocket close codes the realtime endpoints use. 4401 and 4403 are what
// y-websocket clients see for a refused token; a Hocuspocus client is told
// by its authentication-failed message instead (its socket serves other
// documents), except when the whole socket must go.
const (
	CloseNormal          = 1000
	CloseGoingAway       = 1001 // server shutting down: reconnect elsewhere
	ClosePolicy          = 1008 // slow client (send queue over its bound)
	CloseTooBig          = 1009 // message over MaxMessageBytes
	CloseInternal        = 1011 // the document could not be loaded or stored
	CloseBadRequest      = 4400 // malformed document name or message
	CloseUnauthorized    = 4401 // bad or expired token
	CloseForbidden       = 4403 // the token grants no access (or no longer)
	CloseTooManySessions = 4429 // a workspace or document connection limit
)

// maxCloseReason is what fits in a close frame (125 bytes minus the code).
const maxCloseReason = 123

// closeReason cuts reason to fit a close frame, on a UTF-8 boundary.
func closeReason(reason string) string {
	if len(reason) <= maxCloseReason {
		return reason
	}
	cut := maxCloseReason
	for cut > 0 && reason[cut]&0xC0 == 0x80 {
		cut--
	}
	return reason[:cut]
}
