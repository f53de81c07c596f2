package realtime

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
)

// DocKey names one editor's document: the unit a room, a fan-out channel
// and a store record are about.
type DocKey struct {
	Workspace string
	Org       string
	Doc       string
	Editor    string
}

// maxNamePart bounds each id in a document name.
const maxNamePart = 256

// ParseDocName reads "{organizationId}/{documentId}/{editorId}", the room
// name both protocols carry (the y-websocket URL path, the Hocuspocus
// document name). Ids may not be empty, contain "/" or exceed 256 bytes.
func ParseDocName(name string) (org, doc, editor string, err error) {
	parts := strings.Split(name, "/")
	if len(parts) != 3 {
		return "", "", "", fmt.Errorf("document name %q is not {organizationId}/{documentId}/{editorId}", name)
	}
	for i, p := range parts {
		if p == "" || len(p) > maxNamePart {
			field := [...]string{"organizationId", "documentId", "editorId"}[i]
			return "", "", "", fmt.Errorf("document name %q: %s must be 1 to %d bytes", name, field, maxNamePart)
		}
	}
	return parts[0], parts[1], parts[2], nil
}

// id is the key as one string for maps; the parts are length-prefixed so
// no choice of ids can make two keys collide.
func (k DocKey) id() string {
	return fmt.Sprintf("%d:%s%d:%s%d:%s%d:%s", len(k.Workspace), k.Workspace, len(k.Org), k.Org, len(k.Doc), k.Doc, len(k.Editor), k.Editor)
}

// channel is the Redis channel of the key's fan-out: a hash, so ids never
// need escaping and every channel has the same short length.
func (k DocKey) channel() string {
	sum := sha256.Sum256([]byte(k.id()))
	return channelPrefix + base64.RawURLEncoding.EncodeToString(sum[:18])
}

// channelPrefix starts every fan-out channel name.
const channelPrefix = "rt:doc:"
