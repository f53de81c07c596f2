package docmigrate

import (
	"log/slog"

	"github.com/gin-gonic/gin"

	"github.com/opencollab/backend/pkg/api"
	"github.com/opencollab/backend/pkg/web"
)

// Routes mounts MigratePath and HasDataPath on r (a group that already
// requires a service principal) with owner behind them.
func Routes(r gin.IRoutes, owner Owner) {
	r.POST(MigratePath, handleMigrate(owner))
	r.POST(HasDataPath, handleHasData(owner))
}

func handleMigrate(owner Owner) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var m Move
		if err := api.Decode(c.Request, &m); err != nil {
			return nil, err
		}
		if m.DocumentID == m.NewDocumentID {
			return nil, api.Errorf(api.InvalidArgument, "newDocumentId must differ from documentId")
		}
		ctx := c.Request.Context()
		moved, err := owner.MigrateDocument(ctx, m)
		if err != nil {
			return nil, err
		}
		slog.InfoContext(ctx, "document data migrated", "workspaceId", m.WorkspaceID, "migrationId", m.MigrationID,
			"documentId", m.DocumentID, "newDocumentId", m.NewDocumentID, "moved", moved)
		return api.OK("Document data migrated.", Moved{Moved: moved}), nil
	})
}

func handleHasData(owner Owner) gin.HandlerFunc {
	return web.Handle(func(c *gin.Context) (*api.Result, error) {
		var doc Document
		if err := api.Decode(c.Request, &doc); err != nil {
			return nil, err
		}
		has, err := owner.DocumentHasData(c.Request.Context(), doc)
		if err != nil {
			return nil, err
		}
		return api.OK("Document data checked.", HasData{HasData: has}), nil
	})
}
