package qdranttest

import (
	"context"
	"math"
	"sort"
	"strconv"

	"github.com/qdrant/go-client/qdrant"
)

// collection is one brute-force collection: every query scans all points.
type collection struct {
	dim     int
	points  map[string]*point // by pointKey
	indexes map[string]qdrant.FieldType
	tenant  map[string]bool
}

type point struct {
	id      *qdrant.PointId
	vector  []float32 // normalised, as Qdrant stores cosine vectors
	payload map[string]*qdrant.Value
}

func newCollection(dim int) *collection {
	return &collection{dim: dim, points: map[string]*point{},
		indexes: map[string]qdrant.FieldType{}, tenant: map[string]bool{}}
}

func pointKey(id *qdrant.PointId) (string, error) {
	switch v := id.GetPointIdOptions().(type) {
	case *qdrant.PointId_Uuid:
		return "u:" + v.Uuid, nil
	case *qdrant.PointId_Num:
		return "n:" + strconv.FormatUint(v.Num, 10), nil
	}
	return "", invalid("qdranttest: point without id")
}

type pointsService struct {
	qdrant.UnimplementedPointsServer
	s *Server
}

func (ps *pointsService) CreateFieldIndex(_ context.Context, req *qdrant.CreateFieldIndexCollection) (*qdrant.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.collection(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	if req.FieldType == nil {
		return nil, invalid("qdranttest: field type required")
	}
	c.indexes[req.GetFieldName()] = req.GetFieldType()
	if req.GetFieldIndexParams().GetKeywordIndexParams().GetIsTenant() {
		c.tenant[req.GetFieldName()] = true
	}
	return completed(), nil
}

func (ps *pointsService) Upsert(_ context.Context, req *qdrant.UpsertPoints) (*qdrant.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.collection(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	staged := make(map[string]*point, len(req.GetPoints()))
	for _, p := range req.GetPoints() {
		key, err := pointKey(p.GetId())
		if err != nil {
			return nil, err
		}
		vec := denseVector(p.GetVectors())
		if len(vec) != c.dim {
			return nil, invalid("Wrong input: Vector dimension error: expected dim: %d, got %d", c.dim, len(vec))
		}
		staged[key] = &point{id: p.GetId(), vector: normalized(vec), payload: p.GetPayload()}
	}
	for k, p := range staged {
		c.points[k] = p
	}
	return completed(), nil
}

func denseVector(v *qdrant.Vectors) []float32 {
	vec := v.GetVector()
	if d := vec.GetDense(); d != nil {
		return d.GetData()
	}
	return vec.GetData()
}

func (ps *pointsService) Delete(_ context.Context, req *qdrant.DeletePoints) (*qdrant.PointsOperationResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.collection(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	sel := req.GetPoints()
	if sel.GetPoints() == nil {
		return nil, invalid("qdranttest: only delete by ids is supported")
	}
	for _, id := range sel.GetPoints().GetIds() {
		key, err := pointKey(id)
		if err != nil {
			return nil, err
		}
		delete(c.points, key)
	}
	return completed(), nil
}

func (ps *pointsService) Count(_ context.Context, req *qdrant.CountPoints) (*qdrant.CountResponse, error) {
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.collection(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	n := uint64(0)
	for _, p := range c.points {
		ok, err := matchFilter(req.GetFilter(), p)
		if err != nil {
			return nil, err
		}
		if ok {
			n++
		}
	}
	return &qdrant.CountResponse{Result: &qdrant.CountResult{Count: n}}, nil
}

// Query supports nearest-neighbour queries on the dense vector with a
// filter, limit, offset and payload selection (the adapter's usage).
func (ps *pointsService) Query(_ context.Context, req *qdrant.QueryPoints) (*qdrant.QueryResponse, error) {
	if len(req.GetPrefetch()) > 0 || req.Using != nil || req.LookupFrom != nil {
		return nil, invalid("qdranttest: prefetch, using and lookup_from are not supported")
	}
	dense := req.GetQuery().GetNearest().GetDense()
	if dense == nil {
		return nil, invalid("qdranttest: only nearest queries with a dense vector are supported")
	}
	ps.s.mu.Lock()
	defer ps.s.mu.Unlock()
	c, err := ps.s.collection(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	if len(dense.GetData()) != c.dim {
		return nil, invalid("Wrong input: Vector dimension error: expected dim: %d, got %d", c.dim, len(dense.GetData()))
	}
	q := normalized(dense.GetData())
	var scoredPts []*qdrant.ScoredPoint
	for _, p := range c.points {
		ok, err := matchFilter(req.GetFilter(), p)
		if err != nil {
			return nil, err
		}
		if ok {
			sp := &qdrant.ScoredPoint{Id: p.id, Score: dot(q, p.vector)}
			if req.GetWithPayload().GetEnable() {
				sp.Payload = p.payload
			}
			scoredPts = append(scoredPts, sp)
		}
	}
	sort.Slice(scoredPts, func(i, j int) bool { return scoredPts[i].Score > scoredPts[j].Score })
	limit, offset := uint64(10), req.GetOffset()
	if req.Limit != nil {
		limit = req.GetLimit()
	}
	if offset >= uint64(len(scoredPts)) {
		return &qdrant.QueryResponse{}, nil
	}
	scoredPts = scoredPts[offset:min(offset+limit, uint64(len(scoredPts)))]
	return &qdrant.QueryResponse{Result: scoredPts}, nil
}

func normalized(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	out := append([]float32(nil), v...)
	if sum == 0 {
		return out
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range out {
		out[i] *= inv
	}
	return out
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
