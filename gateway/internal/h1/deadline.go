package h1

import "time"

// maxDeadlineSlack is how far a deadline may move before the socket is
// told: setting one re-arms a runtime timer, which on a keep-alive
// connection serving thousands of requests a second cost more than parsing
// them. A deadline on the socket is thus up to the slack earlier than the
// request's own, never later. The slack is a sixteenth of the server's
// shortest timeout, at most a second (the gateway's: 10 s, so 625 ms).
const maxDeadlineSlack = time.Second

func (s *Server) deadlineSlack() time.Duration {
	slack := maxDeadlineSlack
	for _, d := range []time.Duration{s.ReadHeaderTimeout, s.ReadTimeout, s.WriteTimeout, s.IdleTimeout} {
		if d > 0 {
			slack = min(slack, d/16)
		}
	}
	return slack
}

// deadlines tracks the read and write deadlines the connection wants and
// the ones set on its socket. The read deadline of a phase (idle wait,
// head, body) reaches the socket only before a read that goes to it: a
// request whose head and body came with the read that ended the idle wait
// sets none.
type deadlines struct {
	readDue, readSet   time.Time
	writeDue, writeSet time.Time
	slack              time.Duration
}

// near reports whether the socket's deadline set may stand for due.
func (dl *deadlines) near(set, due time.Time) bool {
	if set.IsZero() || due.IsZero() {
		return set.IsZero() == due.IsZero()
	}
	d := due.Sub(set)
	return d >= 0 && d < dl.slack
}

// socketReader is what the connection's bufio.Reader reads from: the
// socket, under the read deadline of the current phase.
type socketReader struct{ c *conn }

func (r socketReader) Read(p []byte) (int, error) {
	c := r.c
	c.syncReadDeadline()
	if c.rawFD != noRawFD {
		return c.readNow(p)
	}
	if c.sock != nil {
		return c.sock.Read(p)
	}
	return c.nc.Read(p)
}

// syncReadDeadline gives the socket the read deadline of the current
// phase, unless the one it has is near enough.
func (c *conn) syncReadDeadline() {
	if !c.dl.near(c.dl.readSet, c.dl.readDue) {
		c.dl.readSet = c.dl.readDue
		_ = c.nc.SetReadDeadline(c.dl.readDue)
	}
}

// write writes p to the socket under the write deadline.
func (c *conn) write(p []byte) (int, error) {
	if !c.dl.near(c.dl.writeSet, c.dl.writeDue) {
		c.dl.writeSet = c.dl.writeDue
		_ = c.nc.SetWriteDeadline(c.dl.writeDue)
	}
	if c.sock != nil {
		return c.sock.Write(p)
	}
	return c.nc.Write(p)
}

// setReadDeadline and setWriteDeadline are a handler's own deadlines
// (http.ResponseController): set at once, and standing until the next
// request.
func (c *conn) setReadDeadline(t time.Time) error {
	c.dl.readDue, c.dl.readSet = t, t
	return c.nc.SetReadDeadline(t)
}

func (c *conn) setWriteDeadline(t time.Time) error {
	c.dl.writeDue, c.dl.writeSet = t, t
	return c.nc.SetWriteDeadline(t)
}

// after is t+d, or no deadline for d 0.
func after(t time.Time, d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return t.Add(d)
}

func firstPositive(ds ...time.Duration) time.Duration {
	for _, d := range ds {
		if d > 0 {
			return d
		}
	}
	return 0
}
