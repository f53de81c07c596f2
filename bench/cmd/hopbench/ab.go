package main

import (
	"fmt"
	"io"
	"strings"
)

// abLine compares target gateway-b (another build, -gateway-b) with this
// build's gateway, figure by figure, as b's over a's: CPU per request in
// every run, throughput in the closed-loop ones. Both ran in the same
// rounds, so the machine's pace moves both alike; an A/A run (the same
// build twice) shows how far apart two identical gateways read.
func abLine(w io.Writer, o options, res results) {
	var parts []string
	cpu := func(a, b *throughput) float64 {
		return perRequest(b.proxyCPU, b) / perRequest(a.proxyCPU, a)
	}
	for _, conc := range o.concs {
		if a, b := res.tp[key{"gateway", conc}], res.tp[key{"gateway-b", conc}]; a != nil && b != nil {
			parts = append(parts, fmt.Sprintf("c=%d CPU %.3f×, throughput %.3f×", conc, cpu(a, b), b.rps()/a.rps()))
		}
		if a, b := res.eq[key{"gateway", conc}], res.eq[key{"gateway-b", conc}]; a != nil && b != nil {
			parts = append(parts, fmt.Sprintf("c=%d at one rate CPU %.3f×", conc, cpu(a, b)))
		}
	}
	if a, b := res.lat["gateway"], res.lat["gateway-b"]; a != nil && b != nil {
		parts = append(parts, fmt.Sprintf("at %d req/s CPU %.3f×", o.rate, cpu(&a.cpu, &b.cpu)))
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "gateway-b against gateway (b ÷ a): %s\n", strings.Join(parts, "; "))
	}
}
