package main

import (
	"fmt"
	"time"
)

// hpAwareness is the Hocuspocus message type of an awareness update.
const hpAwareness = 1

// renewAfter is how long a client stays silent before it sends its
// awareness state again: a stock provider renews it every 15 s (y-protocols'
// outdatedTimeout / 2). Without it a server's clients sat silent through
// the other server's saturation rounds, and Hocuspocus ends a connection
// that sent nothing for 60 s (its timeout): on a slow machine all 1000 of
// its connections ended before its last round.
const renewAfter = 15 * time.Second

// keepAware sends the awareness state of each client that has sent
// nothing for silentFor (renewAfter in a run), looking once a second at
// most, until done is closed. While a server's clients edit (steady,
// saturated) none is due.
func (r *run) keepAware(clients []*client, silentFor time.Duration, done <-chan struct{}) {
	tick := time.NewTicker(min(time.Second, silentFor/2))
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		due := time.Since(r.epoch) - silentFor
		for _, c := range clients {
			if time.Duration(c.lastWrite.Load()) < due && !r.closing.Load() {
				_ = c.renewAwareness()
			}
		}
	}
}

// renewAwareness sends the client's awareness state, one entry with the
// next awareness clock, as a provider's awareness update.
func (c *client) renewAwareness() error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.awareClock++
	var u []byte
	u = putUvarint(u, 1) // one client's state
	u = putUvarint(u, c.id)
	u = putUvarint(u, c.awareClock)
	u = putString(u, fmt.Sprintf(`{"user":{"name":"load client %d"}}`, c.id-idBase))
	m := c.header(hpAwareness)
	m = putUvarint(m, uint64(len(u)))
	return c.writeMsg(append(m, u...))
}
