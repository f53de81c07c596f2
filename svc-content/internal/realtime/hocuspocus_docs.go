package realtime

// The documents of a Hocuspocus socket: found by address, added within
// the bounds, and the messages queued before their token is decided.

// doc returns the document at addr, adding it while the bounds allow.
func (s *hpSocket) doc(addr []byte) (*hpDoc, int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.docs {
		if d.addr == string(addr) { // compared, not converted: no copy
			return d, 0, ""
		}
	}
	pending := 0
	for _, d := range s.docs {
		if d.m == nil {
			pending++
		}
	}
	if pending >= hpMaxPendingDocs || len(s.docs) >= hpMaxDocsInSocket {
		return nil, ClosePolicy, "too many documents on one connection"
	}
	d := &hpDoc{addr: string(addr)}
	s.docs = append(s.docs, d)
	return d, 0, ""
}

// find returns the index of the document at addr, or -1.
func (s *hpSocket) find(addr string) int {
	for i, d := range s.docs {
		if d.addr == addr {
			return i
		}
	}
	return -1
}

// removeLocked forgets the i-th document (order does not matter).
func (s *hpSocket) removeLocked(i int) {
	last := len(s.docs) - 1
	s.docs[i] = s.docs[last]
	s.docs[last] = nil
	s.docs = s.docs[:last]
}

// stopAuthTimerLocked stops and drops the authentication deadline.
func (s *hpSocket) stopAuthTimerLocked() {
	if s.authTimer != nil {
		s.authTimer.Stop()
		s.authTimer = nil
	}
}

func (s *hpSocket) enqueue(d *hpDoc, msg []byte) (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.queuedMsgs+1 > hpMaxQueuedMsgs || s.queuedBytes+len(msg) > hpMaxQueuedBytes {
		return ClosePolicy, "too much sent before authentication"
	}
	s.queuedMsgs++
	s.queuedBytes += len(msg)
	d.queue = append(d.queue, msg)
	return 0, ""
}
