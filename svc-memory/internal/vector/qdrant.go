package vector

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultCollection is the Qdrant collection used when none is configured.
const DefaultCollection = "judgments"

// upsertBatch keeps each Upsert request far below gRPC's 4 MiB default
// message limit (512 x 1536 dims x 4 B = 3 MiB at the largest common model).
const upsertBatch = 512

// QdrantOptions configures NewQdrant.
type QdrantOptions struct {
	// Addr is host:port of Qdrant's gRPC API (usually port 6334).
	Addr string
	// Collection defaults to DefaultCollection.
	Collection string
	// Dim is the vector length; an existing collection must match it.
	Dim int
	// APIKey is sent as the api-key header when set.
	APIKey string
	// UseTLS connects with TLS (system roots).
	UseTLS bool
}

// Qdrant is the Index backed by a Qdrant collection. String IDs become
// name-based UUIDs (Qdrant accepts only UUIDs and integers); the original
// ID travels in the payload.
type Qdrant struct {
	client     *qdrant.Client
	collection string
	dim        int
}

var _ Index = (*Qdrant)(nil)

// NewQdrant connects, creates the collection (cosine distance) if missing
// and makes sure every filterable payload field is indexed.
func NewQdrant(ctx context.Context, opts QdrantOptions) (*Qdrant, error) {
	if opts.Dim <= 0 {
		return nil, fmt.Errorf("%w: dimension must be positive, got %d", ErrInvalid, opts.Dim)
	}
	host, portText, err := net.SplitHostPort(opts.Addr)
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil || host == "" {
		return nil, fmt.Errorf("%w: Qdrant address %q is not host:port", ErrInvalid, opts.Addr)
	}
	if opts.Collection == "" {
		opts.Collection = DefaultCollection
	}
	client, err := qdrant.NewClient(&qdrant.Config{
		Host: host, Port: port, APIKey: opts.APIKey, UseTLS: opts.UseTLS,
		SkipCompatibilityCheck: true, // checked lazily by the first real call
	})
	if err != nil {
		return nil, qdrantError("connect", err)
	}
	q := &Qdrant{client: client, collection: opts.Collection, dim: opts.Dim}
	if err := q.ensureCollection(ctx); err != nil {
		client.Close()
		return nil, err
	}
	return q, nil
}

// payloadIndexes are the payload fields filters use; workspaceId is
// marked as the tenant key so Qdrant co-locates each workspace's points.
var payloadIndexes = []struct {
	field  string
	typ    qdrant.FieldType
	tenant bool
}{
	{keyWorkspace, qdrant.FieldType_FieldTypeKeyword, true},
	{keyOrganization, qdrant.FieldType_FieldTypeKeyword, false},
	{keyDocument, qdrant.FieldType_FieldTypeKeyword, false},
	{keyDecision, qdrant.FieldType_FieldTypeKeyword, false},
	{keyJudgeType, qdrant.FieldType_FieldTypeKeyword, false},
	{keyContentType, qdrant.FieldType_FieldTypeKeyword, false},
	{keyReviewer, qdrant.FieldType_FieldTypeKeyword, false},
	{keyAnnotation, qdrant.FieldType_FieldTypeKeyword, false},
	{keyCreatedAt, qdrant.FieldType_FieldTypeInteger, false},
}

func (q *Qdrant) ensureCollection(ctx context.Context) error {
	exists, err := q.client.CollectionExists(ctx, q.collection)
	if err != nil {
		return qdrantError("check collection", err)
	}
	if !exists {
		err := q.client.CreateCollection(ctx, &qdrant.CreateCollection{
			CollectionName: q.collection,
			VectorsConfig: qdrant.NewVectorsConfig(&qdrant.VectorParams{
				Size: uint64(q.dim), Distance: qdrant.Distance_Cosine,
			}),
		})
		// Another instance may have created it meanwhile; the check below
		// decides.
		if err != nil && !isAlreadyExists(err) {
			return qdrantError("create collection", err)
		}
	}
	info, err := q.client.GetCollectionInfo(ctx, q.collection)
	if err != nil {
		return qdrantError("read collection", err)
	}
	if size := info.GetConfig().GetParams().GetVectorsConfig().GetParams().GetSize(); size != uint64(q.dim) {
		return fmt.Errorf("%w: Qdrant collection %q has %d dimensions, want %d", ErrInvalid, q.collection, size, q.dim)
	}
	for _, idx := range payloadIndexes {
		if _, ok := info.GetPayloadSchema()[idx.field]; ok {
			continue
		}
		if err := q.createIndex(ctx, idx.field, idx.typ, idx.tenant); err != nil {
			return err
		}
	}
	return nil
}

func (q *Qdrant) createIndex(ctx context.Context, field string, typ qdrant.FieldType, tenant bool) error {
	req := &qdrant.CreateFieldIndexCollection{
		CollectionName: q.collection, FieldName: field, FieldType: typ.Enum(), Wait: qdrant.PtrOf(true),
	}
	if tenant {
		req.FieldIndexParams = qdrant.NewPayloadIndexParamsKeyword(&qdrant.KeywordIndexParams{IsTenant: qdrant.PtrOf(true)})
	}
	if _, err := q.client.CreateFieldIndex(ctx, req); err != nil {
		return qdrantError("create payload index "+field, err)
	}
	return nil
}

// Upsert implements Index.
func (q *Qdrant) Upsert(ctx context.Context, points ...Point) error {
	if err := validatePoints(points, q.dim); err != nil {
		return err
	}
	for start := 0; start < len(points); start += upsertBatch {
		batch := points[start:min(start+upsertBatch, len(points))]
		structs := make([]*qdrant.PointStruct, len(batch))
		for i, p := range batch {
			structs[i] = &qdrant.PointStruct{
				Id:      qdrant.NewIDUUID(pointUUID(p.ID)),
				Vectors: qdrant.NewVectorsDense(p.Vector),
				Payload: encodePayload(p.ID, p.Payload),
			}
		}
		_, err := q.client.Upsert(ctx, &qdrant.UpsertPoints{
			CollectionName: q.collection, Wait: qdrant.PtrOf(true), Points: structs,
		})
		if err != nil {
			return qdrantError("upsert", err)
		}
	}
	return nil
}

// Delete implements Index.
func (q *Qdrant) Delete(ctx context.Context, ids ...string) error {
	if len(ids) == 0 {
		return nil
	}
	pids := make([]*qdrant.PointId, len(ids))
	for i, id := range ids {
		pids[i] = qdrant.NewIDUUID(pointUUID(id))
	}
	_, err := q.client.Delete(ctx, &qdrant.DeletePoints{
		CollectionName: q.collection, Wait: qdrant.PtrOf(true), Points: qdrant.NewPointsSelectorIDs(pids),
	})
	if err != nil {
		return qdrantError("delete", err)
	}
	return nil
}

// Search implements Index; the filter goes into the query, so Qdrant
// applies it during its (filterable) HNSW search.
func (q *Qdrant) Search(ctx context.Context, query []float32, f Filter, limit int) ([]Hit, error) {
	if err := validateSearch(query, f, limit, q.dim); err != nil {
		return nil, err
	}
	res, err := q.client.Query(ctx, &qdrant.QueryPoints{
		CollectionName: q.collection,
		Query:          qdrant.NewQueryDense(query),
		Filter:         toQdrantFilter(f),
		Limit:          qdrant.PtrOf(uint64(limit)),
		WithPayload:    qdrant.NewWithPayload(true),
	})
	if err != nil {
		return nil, qdrantError("query", err)
	}
	hits := make([]Hit, len(res))
	for i, sp := range res {
		id, payload := decodePayload(sp.GetPayload())
		hits[i] = Hit{ID: id, Score: sp.GetScore(), Payload: payload}
	}
	return hits, nil
}

// Count implements Index (an exact count).
func (q *Qdrant) Count(ctx context.Context, f Filter) (int, error) {
	if err := validateFilter(f); err != nil {
		return 0, err
	}
	n, err := q.client.Count(ctx, &qdrant.CountPoints{
		CollectionName: q.collection, Filter: toQdrantFilter(f), Exact: qdrant.PtrOf(true),
	})
	if err != nil {
		return 0, qdrantError("count", err)
	}
	return int(n), nil
}

// Close closes the gRPC connection.
func (q *Qdrant) Close() error { return q.client.Close() }

// qdrantError maps gRPC failures onto the package errors.
func qdrantError(op string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("vector: qdrant %s: %w", op, err)
	}
	st, _ := status.FromError(err)
	switch st.Code() {
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted:
		return fmt.Errorf("%w: qdrant %s: %v", ErrUnavailable, op, err)
	case codes.InvalidArgument:
		return fmt.Errorf("%w: qdrant %s: %v", ErrInvalid, op, err)
	}
	return fmt.Errorf("vector: qdrant %s: %w", op, err)
}

func isAlreadyExists(err error) bool {
	st, _ := status.FromError(err)
	return st.Code() == codes.AlreadyExists || st.Code() == codes.InvalidArgument
}
