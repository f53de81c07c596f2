package telemetry

import (
	"os"
	"strconv"
	"strings"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// samplerFromEnv builds the sampler OTEL_TRACES_SAMPLER and
// OTEL_TRACES_SAMPLER_ARG name, as the SDK's own reading of them does, so
// that the provider and Tracer's head decision share one sampler. Without
// the variable it is the SDK's default, ParentBased(AlwaysSample). A value
// the SDK would report as an error gives nil: the SDK then reads the
// variables itself (and reports), and Tracer leaves every decision to it.
func samplerFromEnv() sdktrace.Sampler {
	name := strings.ToLower(strings.TrimSpace(os.Getenv("OTEL_TRACES_SAMPLER")))
	arg := strings.TrimSpace(os.Getenv("OTEL_TRACES_SAMPLER_ARG"))
	switch name {
	case "":
		return sdktrace.ParentBased(sdktrace.AlwaysSample())
	case "always_on":
		return sdktrace.AlwaysSample()
	case "always_off":
		return sdktrace.NeverSample()
	case "parentbased_always_on":
		return sdktrace.ParentBased(sdktrace.AlwaysSample())
	case "parentbased_always_off":
		return sdktrace.ParentBased(sdktrace.NeverSample())
	case "traceidratio":
		if ratio, ok := traceIDRatio(arg); ok {
			return ratio
		}
	case "parentbased_traceidratio":
		if ratio, ok := traceIDRatio(arg); ok {
			return sdktrace.ParentBased(ratio)
		}
	}
	return nil
}

// traceIDRatio reads the ratio argument: absent is 1, outside [0, 1] or
// not a number is the SDK's error case.
func traceIDRatio(arg string) (sdktrace.Sampler, bool) {
	if arg == "" {
		return sdktrace.TraceIDRatioBased(1), true
	}
	v, err := strconv.ParseFloat(arg, 64)
	if err != nil || v < 0 || v > 1 {
		return nil, false
	}
	return sdktrace.TraceIDRatioBased(v), true
}
