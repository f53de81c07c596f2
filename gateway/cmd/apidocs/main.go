// Command apidocs writes the API reference generated from the OpenAPI
// document: docs/api-reference.md and docs/openapi.json (for clients that
// import a file, e.g. Postman or a code generator). Run it from the
// repository root after changing gateway/openapi/spec:
//
//	go run ./gateway/cmd/apidocs
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/opencollab/backend/gateway/openapi"
)

func main() {
	dir := flag.String("out", "docs", "folder to write into")
	flag.Parse()
	for name, body := range map[string][]byte{
		"api-reference.md": openapi.Markdown(),
		"openapi.json":     openapi.Document(),
	} {
		if err := os.WriteFile(filepath.Join(*dir, name), body, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
