package vector

// scored is a node with its distance to the query (-dot: smaller is closer).
type scored struct {
	d float32
	n uint32
}

// The heaps below are written out for scored rather than going through
// container/heap: the interface calls cost more than the comparisons.

// minHeap pops the closest node first (HNSW candidate queue).
type minHeap []scored

func (h *minHeap) push(x scored) {
	*h = append(*h, x)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p].d <= a[i].d {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *minHeap) pop() scored {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	siftDownMin(a)
	*h = a
	return top
}

// maxHeap keeps the k closest nodes with the farthest on top (results).
type maxHeap []scored

func (h *maxHeap) push(x scored) {
	*h = append(*h, x)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p].d >= a[i].d {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *maxHeap) pop() scored {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	siftDownMax(a)
	*h = a
	return top
}

// top is the farthest kept node; the heap must not be empty.
func (h maxHeap) top() scored { return h[0] }

// offer keeps x if the heap has fewer than k nodes or x is closer than the
// farthest one.
func (h *maxHeap) offer(x scored, k int) {
	if len(*h) < k {
		h.push(x)
		return
	}
	if x.d < (*h)[0].d {
		(*h)[0] = x
		siftDownMax(*h)
	}
}

func siftDownMin(a []scored) {
	n, i := len(a), 0
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && a[r].d < a[c].d {
			c = r
		}
		if a[c].d >= a[i].d {
			return
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
}

func siftDownMax(a []scored) {
	n, i := len(a), 0
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && a[r].d > a[c].d {
			c = r
		}
		if a[c].d <= a[i].d {
			return
		}
		a[i], a[c] = a[c], a[i]
		i = c
	}
}

// sorted empties the heap into a slice ordered closest first.
func (h *maxHeap) sorted() []scored {
	out := make([]scored, len(*h))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = h.pop()
	}
	return out
}
