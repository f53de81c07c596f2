package vector

import (
	"crypto/sha1"
	"fmt"

	"github.com/qdrant/go-client/qdrant"
)

// Payload keys in Qdrant (the camelCase of the API).
const (
	keyID           = "id"
	keyWorkspace    = "workspaceId"
	keyOrganization = "organizationId"
	keyDocument     = "documentId"
	keyDecision     = "decision"
	keyJudgeType    = "judgeType"
	keyContentType  = "contentType"
	keyReviewer     = "reviewerId"
	keyAnnotation   = "annotationId"
	keyCreatedAt    = "createdAt"
)

// pointNamespace is the UUID namespace of point IDs (a fixed random UUID);
// changing it would orphan every stored point.
var pointNamespace = [16]byte{0x6f, 0x8e, 0x2b, 0x41, 0x0c, 0x5d, 0x4a, 0x3e, 0x9b, 0x17, 0x52, 0xd4, 0xa0, 0x3c, 0x88, 0x61}

// pointUUID derives the Qdrant point ID from the string ID: a name-based
// version 5 UUID (RFC 9562), so the same ID always maps to the same point.
func pointUUID(id string) string {
	h := sha1.New()
	h.Write(pointNamespace[:])
	h.Write([]byte(id))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = (u[6] & 0x0f) | 0x50
	u[8] = (u[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

func encodePayload(id string, p Payload) map[string]*qdrant.Value {
	m := map[string]*qdrant.Value{
		keyID:        qdrant.NewValueString(id),
		keyWorkspace: qdrant.NewValueString(p.WorkspaceID),
		keyCreatedAt: qdrant.NewValueInt(p.CreatedAt),
	}
	// Empty fields are left out: a filter never asks for the empty value.
	for key, v := range map[string]string{
		keyOrganization: p.OrganizationID, keyDocument: p.DocumentID, keyDecision: p.Decision,
		keyJudgeType: p.JudgeType, keyContentType: p.ContentType, keyReviewer: p.ReviewerID,
		keyAnnotation: p.AnnotationID,
	} {
		if v != "" {
			m[key] = qdrant.NewValueString(v)
		}
	}
	return m
}

func decodePayload(m map[string]*qdrant.Value) (string, Payload) {
	str := func(key string) string { return m[key].GetStringValue() }
	return str(keyID), Payload{
		WorkspaceID: str(keyWorkspace), OrganizationID: str(keyOrganization),
		DocumentID: str(keyDocument), Decision: str(keyDecision), JudgeType: str(keyJudgeType),
		ContentType: str(keyContentType), ReviewerID: str(keyReviewer), AnnotationID: str(keyAnnotation),
		CreatedAt: m[keyCreatedAt].GetIntegerValue(),
	}
}

// toQdrantFilter expresses f as must / must_not conditions.
func toQdrantFilter(f Filter) *qdrant.Filter {
	must := []*qdrant.Condition{qdrant.NewMatchKeyword(keyWorkspace, f.WorkspaceID)}
	for _, c := range []struct{ key, val string }{
		{keyOrganization, f.OrganizationID}, {keyDocument, f.DocumentID}, {keyJudgeType, f.JudgeType},
		{keyContentType, f.ContentType}, {keyReviewer, f.ReviewerID}, {keyAnnotation, f.AnnotationID},
	} {
		if c.val != "" {
			must = append(must, qdrant.NewMatchKeyword(c.key, c.val))
		}
	}
	if len(f.Decisions) > 0 {
		must = append(must, qdrant.NewMatchKeywords(keyDecision, f.Decisions...))
	}
	if f.CreatedFrom != 0 || f.CreatedTo != 0 {
		r := &qdrant.Range{}
		if f.CreatedFrom != 0 {
			r.Gte = qdrant.PtrOf(float64(f.CreatedFrom))
		}
		if f.CreatedTo != 0 {
			r.Lte = qdrant.PtrOf(float64(f.CreatedTo))
		}
		must = append(must, qdrant.NewRange(keyCreatedAt, r))
	}
	filter := &qdrant.Filter{Must: must}
	if len(f.ExcludeDocumentIDs) > 0 {
		filter.MustNot = []*qdrant.Condition{qdrant.NewMatchKeywords(keyDocument, f.ExcludeDocumentIDs...)}
	}
	return filter
}
