package identity

import "context"

// DocumentsQuery is /v2/organizations/documents/get.
type DocumentsQuery struct {
	OrganizationID string
	IDs            []string // at most 30; answered in one page, in this order
	FolderID       string   // "" = any folder
	PageSize       int
	PageToken      string
}

// DocumentEntry is one entry of documents/get: the document, or, for a
// requested id that does not exist (or is not in FolderID), only its id.
// AccessType is the document's effective access type, the one
// permissions/get reports (never the stored "default").
type DocumentEntry struct {
	ID         string
	Document   *Document
	AccessType string
}

// DocumentsPage is one page of documents/get.
type DocumentsPage struct {
	Entries       []DocumentEntry
	NextPageToken string
}

// GetDocuments returns the requested documents in request order, or pages
// through the organization's documents (of one folder if FolderID is set)
// sorted by id.
func (s *Service) GetDocuments(ctx context.Context, ws string, q DocumentsQuery) (DocumentsPage, error) {
	if len(q.IDs) > 0 {
		return s.documentsByID(ctx, ws, q)
	}
	key := queryKey("documents/get", [2]string{q.OrganizationID, q.FolderID})
	var after string
	if err := s.loadCursor(ctx, ws, key, q.PageToken, &after); err != nil {
		return DocumentsPage{}, err
	}
	limit := pageSize(q.PageSize)
	dq := DocumentQuery{OrganizationID: q.OrganizationID, After: after, Limit: limit + 1}
	if q.FolderID != "" {
		dq.FolderID = &q.FolderID
	}
	docs, err := s.store.ListDocuments(ctx, ws, dq)
	if err != nil {
		return DocumentsPage{}, err
	}
	var page DocumentsPage
	if len(docs) > limit {
		docs = docs[:limit]
		if page.NextPageToken, err = s.saveCursor(ctx, ws, key, docs[limit-1].ID); err != nil {
			return DocumentsPage{}, err
		}
	}
	types, err := s.effectiveAccessTypes(ctx, ws, q.OrganizationID, docs)
	if err != nil {
		return DocumentsPage{}, err
	}
	page.Entries = make([]DocumentEntry, len(docs))
	for i := range docs {
		page.Entries[i] = DocumentEntry{ID: docs[i].ID, Document: &docs[i], AccessType: types[docs[i].ID]}
	}
	return page, nil
}

func (s *Service) documentsByID(ctx context.Context, ws string, q DocumentsQuery) (DocumentsPage, error) {
	docs, err := s.store.GetDocuments(ctx, ws, q.OrganizationID, q.IDs)
	if err != nil {
		return DocumentsPage{}, err
	}
	byID := make(map[string]*Document, len(docs))
	for i := range docs {
		if q.FolderID == "" || docs[i].FolderID == q.FolderID {
			byID[docs[i].ID] = &docs[i]
		}
	}
	types, err := s.effectiveAccessTypes(ctx, ws, q.OrganizationID, docs)
	if err != nil {
		return DocumentsPage{}, err
	}
	entries := make([]DocumentEntry, len(q.IDs))
	for i, id := range q.IDs {
		entries[i] = DocumentEntry{ID: id, Document: byID[id], AccessType: types[id]}
	}
	return DocumentsPage{Entries: entries}, nil
}
