package httpapi

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/crdt"
)

// crdtDecode lets map content keep keys with dots: data is stored as JSON
// text, never as field names ('$' keys are still refused).
var crdtDecode = api.DecodeOptions{FreeKeys: []string{"data"}}

// crdtWriteRequest is the body of /v2/crdt/add and /v2/crdt/update.
type crdtWriteRequest struct {
	OrganizationID string          `json:"organizationId" validate:"required"`
	DocumentID     string          `json:"documentId" validate:"required"`
	EditorID       string          `json:"editorId" validate:"required"`
	Type           string          `json:"type" validate:"omitempty,oneof=text map array xml"`
	Data           json.RawMessage `json:"data"`
	ContentKey     *string         `json:"contentKey"`
	UserID         string          `json:"userId"` // optional: recorded as lastUpdatedBy
	Update         *string         `json:"update"` // update only: base64 Yjs update (v1)
}

func (r crdtWriteRequest) editor() crdt.Editor {
	return crdt.Editor{OrganizationID: r.OrganizationID, DocumentID: r.DocumentID, EditorID: r.EditorID}
}

// content refuses an explicitly empty contentKey (absent means the default
// on add, the stored key on update) and a update that is not base64.
func (r crdtWriteRequest) content() (crdt.Content, error) {
	c := crdt.Content{Type: r.Type, Data: r.Data}
	if r.ContentKey != nil {
		if *r.ContentKey == "" {
			return c, api.Errorf(api.InvalidArgument, "field contentKey must not be empty")
		}
		c.ContentKey = *r.ContentKey
	}
	var err error
	c.Update, err = decodeBase64("update", r.Update)
	return c, err
}

type crdtGetRequest struct {
	OrganizationID string  `json:"organizationId" validate:"required"`
	DocumentID     string  `json:"documentId" validate:"required"`
	EditorID       string  `json:"editorId"` // empty: every editor of the document
	Format         string  `json:"format"`   // "", "prosemirror" or "yjs"
	StateVector    *string `json:"stateVector"`
}

func (r crdtGetRequest) query() (crdt.Query, error) {
	q := crdt.Query{Format: r.Format}
	var err error
	q.StateVector, err = decodeBase64("stateVector", r.StateVector)
	return q, err
}

// decodeBase64 decodes an optional base64 field (nil when absent).
func decodeBase64(field string, s *string) ([]byte, error) {
	if s == nil {
		return nil, nil
	}
	b, err := base64.StdEncoding.DecodeString(*s)
	if err != nil {
		return nil, api.Errorf(api.InvalidArgument, "field %s is not base64 (standard alphabet, padded): %v", field, err)
	}
	return b, nil
}

// decodeCRDT decodes a CRDT request and refuses fields it does not know,
// so no field is silently ignored. The body may carry a whole document
// (base64 takes 4/3 of it).
func decodeCRDT(c *gin.Context, svc *crdt.Service, dst any) error {
	limit := svc.Settings().MaxDocumentBytes*4/3 + 1<<20
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, limit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return api.Errorf(api.InvalidArgument, "request body exceeds the limit of %d bytes", limit)
	} else if err != nil {
		return api.Errorf(api.InvalidArgument, "could not read request body: %v", err)
	}
	if err := api.DecodeBytes(body, dst, crdtDecode); err != nil {
		return err
	}
	var env struct {
		Data map[string]json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(body, &env) // DecodeBytes read it already
	var unknown []string
	for k := range env.Data {
		if !slices.Contains(jsonFields(dst), k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return api.Errorf(api.InvalidArgument, "unknown field(s) %s; allowed: %s", strings.Join(unknown, ", "), strings.Join(jsonFields(dst), ", "))
	}
	return nil
}

func handleCRDTAdd(svc *crdt.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req crdtWriteRequest
		if err := decodeCRDT(c, svc, &req); err != nil {
			return nil, err
		}
		if req.Update != nil {
			return nil, api.Errorf(api.InvalidArgument, "field update is for /v2/crdt/update; add takes data")
		}
		if req.Type == "" || req.Data == nil {
			return nil, api.Errorf(api.InvalidArgument, "fields type and data are required")
		}
		content, err := req.content()
		if err != nil {
			return nil, err
		}
		ws := internalauth.WorkspaceID(c.Request.Context())
		if err := svc.Add(c.Request.Context(), ws, req.editor(), content, req.UserID); err != nil {
			return nil, err
		}
		return api.Done("CRDT data added successfully."), nil
	})
}

func handleCRDTGet(svc *crdt.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req crdtGetRequest
		if err := decodeCRDT(c, svc, &req); err != nil {
			return nil, err
		}
		q, err := req.query()
		if err != nil {
			return nil, err
		}
		ws := internalauth.WorkspaceID(c.Request.Context())
		views, err := svc.Get(c.Request.Context(), ws, req.OrganizationID, req.DocumentID, req.EditorID, q)
		if err != nil {
			return nil, err
		}
		return api.OK("CRDT data retrieved successfully.", views), nil
	})
}

func handleCRDTUpdate(svc *crdt.Service) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var req crdtWriteRequest
		if err := decodeCRDT(c, svc, &req); err != nil {
			return nil, err
		}
		content, err := req.content()
		if err != nil {
			return nil, err
		}
		ws := internalauth.WorkspaceID(c.Request.Context())
		if err := svc.Update(c.Request.Context(), ws, req.editor(), content, req.UserID); err != nil {
			return nil, err
		}
		return api.Done("CRDT data updated successfully."), nil
	})
}

// jsonFields lists the JSON names of a request struct's fields.
func jsonFields(dst any) []string {
	t := reflect.TypeOf(dst).Elem()
	names := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}
