// Package httpapi is the HTTP surface of svc-content: routes, handlers and
// the wire shapes of requests and replies.
package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/docmigrate"
	"github.com/opencollab/backend/pkg/erasure"
	"github.com/opencollab/backend/pkg/features"
	"github.com/opencollab/backend/pkg/internalauth"
	"github.com/opencollab/backend/pkg/web"
	"github.com/opencollab/backend/svc-content/internal/annotations"
	"github.com/opencollab/backend/svc-content/internal/crdt"
	"github.com/opencollab/backend/svc-content/internal/locations"
	"github.com/opencollab/backend/svc-content/internal/migration"
)

// Internal routes other services call.
const (
	UserDataPath = "/internal/userdata/content" // identity's users/data/get fan-out
)

// Services are what the routes call.
type Services struct {
	CRDT        *crdt.Service
	Annotations *annotations.Service
	Features    features.Gate
	Locations   *locations.Service
	Migrations  *migration.Service
	Documents   docmigrate.Owner // content's own data keyed by document id
	Realtime    Realtime         // nil: no realtime sync
	LiveState   LiveState
}

// Realtime serves the WebSocket protocols of realtime sync
// (internal/realtime.Hub).
type Realtime interface {
	ServeYWebsocket(w http.ResponseWriter, r *http.Request, org, doc, editor string)
	ServeHocuspocus(w http.ResponseWriter, r *http.Request)
}

// Routes registers every operation on e. Public operations act for the
// workspace the gateway signed; internal ones are for other services.
func Routes(e *gin.Engine, signer *internalauth.Signer, s Services) {
	authed := e.Group("", signer.Authenticate())

	public := authed.Group("", internalauth.RequireWorkspace())
	public.POST("/v1/organizations/documents/locations/update", handleLocationsUpdate(s.Locations))
	public.POST("/v2/organizations/documents/migrate", handleMigrationStart(s.Migrations))
	public.POST("/v2/organizations/documents/migrate/status", handleMigrationStatus(s.Migrations))
	crdtRoutes(public, s.CRDT)
	annotationRoutes(public, s.Annotations, s.Features)
	public.POST("/v2/livestate/broadcast", handleLiveStateBroadcast(s.LiveState))

	if s.Realtime != nil {
		// The gateway forwards these upgrades without a workspace; the
		// user token in the query or the Auth message is checked here.
		rt := authed.Group("", internalauth.RequireRealtimeUpgrade())
		rt.GET("/v2/crdt/sync/:org/:doc/:editor", func(c *gin.Context) {
			s.Realtime.ServeYWebsocket(c.Writer, c.Request, c.Param("org"), c.Param("doc"), c.Param("editor"))
		})
		rt.GET("/v2/crdt/hocuspocus", func(c *gin.Context) { s.Realtime.ServeHocuspocus(c.Writer, c.Request) })
	}

	internal := authed.Group("", internalauth.RequireService())
	docmigrate.Routes(internal, s.Documents)
	internal.POST(UserDataPath, handleUserData(s.Annotations))
	internal.POST(erasure.Path, erasure.Handler(s.Annotations.EraseUsers))
}

// crdtRoutes registers the CRDT editor-data operations.
func crdtRoutes(g gin.IRoutes, svc *crdt.Service) {
	g.POST("/v2/crdt/add", handleCRDTAdd(svc))
	g.POST("/v2/crdt/get", handleCRDTGet(svc))
	g.POST("/v2/crdt/update", handleCRDTUpdate(svc))
}

// annotationRoutes registers the comment-annotation operations (spec §7).
// The two reaction operations are ours: the spec models reactions but
// documents no REST operation for them (see annotations/reactions.go).
// The reads that are advanced queries need the workspace's switch on.
func annotationRoutes(g gin.IRoutes, svc *annotations.Service, gate features.Gate) {
	advanced := features.Middleware(gate, features.AdvancedQueries)
	g.POST("/v2/commentannotations/add", web.Handle(annotationOp(svc.Add, "Annotations added.")))
	g.POST("/v2/commentannotations/get", advanced, handleAnnotationsGet(svc))
	g.POST("/v2/commentannotations/count/get", advanced, web.Handle(annotationOp(svc.Count, "Comment count retrieved successfully.")))
	g.POST("/v2/commentannotations/update", web.Handle(annotationOp(svc.Update, "Annotations updated.")))
	g.POST("/v2/commentannotations/delete", web.Handle(annotationOp(deleteAnnotations(svc, gate), "Annotations deleted.")))
	g.POST("/v2/commentannotations/comments/add", web.Handle(annotationOp(svc.AddComments, "Comments added.")))
	g.POST("/v2/commentannotations/comments/get", advanced, web.Handle(annotationOp(svc.GetComments, "Comments retrieved.")))
	g.POST("/v2/commentannotations/comments/update", web.Handle(annotationOp(svc.UpdateComments, "Comments updated.")))
	g.POST("/v2/commentannotations/comments/delete", web.Handle(annotationOp(svc.DeleteComments, "Comments deleted.")))
	g.POST("/v2/commentannotations/reactions/add", web.Handle(annotationOp(svc.AddReaction, "Reaction added.")))
	g.POST("/v2/commentannotations/reactions/delete", web.Handle(annotationOp(svc.DeleteReaction, "Reaction deleted.")))
}
