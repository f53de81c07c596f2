// Command settingsdoc prints docs/settings.md, the settings reference,
// from the config structs of every binary (`make settings`).
package main

import (
	"fmt"
	"os"

	"github.com/opencollab/backend/deploy/local/internal/release"
)

func main() {
	root, err := release.RepoRoot(".")
	if err == nil {
		var doc string
		if doc, err = release.SettingsMarkdown(root); err == nil {
			fmt.Print(doc)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "settingsdoc:", err)
	os.Exit(1)
}
