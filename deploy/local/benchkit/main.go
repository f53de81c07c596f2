package benchkit

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// Main is a tool's main after its flags are parsed. run gets a context
// that Ctrl-C or SIGTERM cancels, so the tool stops its system and
// removes its temporary data; a second signal ends the process at once,
// for a tool stuck in a step that does not watch the context. The tool's
// own logs go to stderr as text, its tables to stdout.
//
// The process exits 1 when run returns an error (printed as "name: err")
// or counts failures (lost events, 5xx answers, calls over their limit:
// the tool's verdict), and 0 otherwise.
func Main(name string, run func(ctx context.Context) (failures int, err error)) {
	os.Exit(exitCode(name, run))
}

func exitCode(name string, run func(ctx context.Context) (int, error)) int {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // the default action again for the next signal
	}()
	failures, err := run(ctx)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		return 1
	}
	if failures > 0 {
		return 1
	}
	return 0
}

// Usage ends a tool whose flags make no sense together, as flag.Parse
// ends one given an unknown flag: the reason on stderr and exit status 2.
func Usage(name string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	os.Exit(2)
}
