package yjs

// ID names one clock tick of one client: every struct covers the IDs
// (client, clock) ... (client, clock+length-1).
type ID struct {
	Client uint64
	Clock  uint64
}

// maxClock bounds clocks and lengths to what a JavaScript peer can count.
const maxClock = 1<<53 - 1
