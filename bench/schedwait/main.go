package main

import (
	"fmt"
	"os"
)

// Usage: schedwait TRACE (an execution trace, such as the gateway.trace
// that hopbench -profile DIR writes during its first latency run).
func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: schedwait TRACE")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedwait:", err)
		os.Exit(1)
	}
	defer f.Close()
	tl, err := readTimeline(f)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedwait:", err)
		os.Exit(1)
	}
	tl.report(os.Stdout)
}
