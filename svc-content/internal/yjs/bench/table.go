package main

import (
	"fmt"
	"io"
)

// printTable prints the figures of both engines as a Markdown table.
func printTable(w io.Writer, edits int, g, js *result) {
	fmt.Fprintf(w, "B4 automerge-paper trace: %d edits, one transaction (and update) each\n\n", edits)
	if js == nil {
		js = &result{}
	}
	fmt.Fprintf(w, "| | Go engine (%s) | yjs %s (node %s) | Go / yjs |\n|---|---:|---:|---:|\n", g.Version, js.Version, js.Node)
	row := func(name, unit string, a, b float64) {
		ratio := "-"
		if b > 0 {
			ratio = fmt.Sprintf("%.2f", a/b)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", name, format(a, unit), format(b, unit), ratio)
	}
	row("apply all edits", "ms", g.EditMs, js.EditMs)
	row("memory of the edited document", "MB", float64(g.EditedMem), float64(js.EditedMem))
	row("updates sent (sum of sizes)", "B", float64(g.UpdateBytes), float64(js.UpdateBytes))
	row("encode document (v1)", "ms", g.EncodeMs, js.EncodeMs)
	row("encoded document size (v1)", "B", float64(g.DocSize), float64(js.DocSize))
	row("load encoded document", "ms", g.ParseMs, js.ParseMs)
	row("memory of the loaded document", "MB", float64(g.LoadedMem), float64(js.LoadedMem))
	row("apply every update to a peer", "ms", g.RemoteMs, js.RemoteMs)
}

func format(v float64, unit string) string {
	switch unit {
	case "ms":
		return fmt.Sprintf("%.0f ms", v)
	case "MB":
		return fmt.Sprintf("%.2f MB", v/1e6)
	}
	return fmt.Sprintf("%.0f B", v)
}
