package keylock

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// TestLockSerialisesOneKey: writers of one key never overlap.
func TestLockSerialisesOneKey(t *testing.T) {
	t.Parallel()
	var s Stripes
	var inside, overlaps int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				unlock := s.Lock("doc-1")
				mu.Lock()
				inside++
				if inside > 1 {
					overlaps++
				}
				mu.Unlock()
				mu.Lock()
				inside--
				mu.Unlock()
				unlock()
			}
		}()
	}
	wg.Wait()
	if overlaps != 0 {
		t.Fatalf("%d overlapping writers of one key", overlaps)
	}
}

// TestLockAllNeverDeadlocks: callers taking many keys in different orders
// (sharing stripes) and callers taking one finish.
func TestLockAllNeverDeadlocks(t *testing.T) {
	t.Parallel()
	var s Stripes
	keys := make([]string, 600)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d", i)
	}
	reversed := make([]string, len(keys))
	for i, k := range keys {
		reversed[len(keys)-1-i] = k
	}
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for range 50 {
					order := keys
					if i%2 == 1 {
						order = reversed
					}
					s.LockAll(order)()
				}
			}()
			go func() {
				defer wg.Done()
				for j := range 200 {
					s.Lock(keys[j%len(keys)])()
				}
			}()
		}
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("LockAll and Lock did not finish: a lock-order cycle")
	}
}

// TestLockAllHoldsEveryKey: while LockAll holds keys, Lock of one of them
// waits until the unlock.
func TestLockAllHoldsEveryKey(t *testing.T) {
	t.Parallel()
	var s Stripes
	unlock := s.LockAll([]string{"a", "b", "c"})
	got := make(chan struct{})
	go func() { s.Lock("b")(); close(got) }()
	select {
	case <-got:
		t.Fatal("Lock of a held key did not wait")
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("Lock did not get the key after the unlock")
	}
}
