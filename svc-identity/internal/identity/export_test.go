package identity

// SetMaxFolderDocuments lowers the bound of DocumentsInFolder for a test
// and returns the function that restores it.
func SetMaxFolderDocuments(n int) (restore func()) {
	old := maxFolderDocuments
	maxFolderDocuments = n
	return func() { maxFolderDocuments = old }
}
