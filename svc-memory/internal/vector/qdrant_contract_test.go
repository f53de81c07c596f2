package vector_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/opencollab/backend/svc-memory/internal/vector"
	"github.com/opencollab/backend/svc-memory/internal/vector/qdranttest"
)

var collectionSeq atomic.Int64

// newQdrantAt returns an index factory for the Qdrant at addr, one fresh
// collection per test.
func newQdrantAt(addr string) newIndexFunc {
	return func(t *testing.T, dim int) vector.Index {
		t.Helper()
		name := fmt.Sprintf("contract_%d_%d", collectionSeq.Add(1), dim)
		idx, err := vector.NewQdrant(context.Background(), vector.QdrantOptions{Addr: addr, Collection: name, Dim: dim})
		if err != nil {
			t.Fatalf("NewQdrant: %v", err)
		}
		t.Cleanup(func() { idx.Close() })
		return idx
	}
}

// The contract against the adapter talking gRPC to the in-process fake.
func TestQdrantContractFake(t *testing.T) {
	t.Parallel()
	srv := qdranttest.Start(t)
	runContract(t, newQdrantAt(srv.Addr()))
}

func TestQdrantCreatesCollectionAndPayloadIndexes(t *testing.T) {
	t.Parallel()
	srv := qdranttest.Start(t)
	ctx := context.Background()
	opts := vector.QdrantOptions{Addr: srv.Addr(), Collection: "judgments_test", Dim: 8}
	for range 2 { // the second start finds everything in place
		idx, err := vector.NewQdrant(ctx, opts)
		if err != nil {
			t.Fatalf("NewQdrant: %v", err)
		}
		idx.Close()
	}
	got, ok := srv.PayloadIndexes("judgments_test")
	if !ok {
		t.Fatal("collection not created")
	}
	want := map[string]string{
		"workspaceId": "FieldTypeKeyword", "organizationId": "FieldTypeKeyword", "documentId": "FieldTypeKeyword",
		"decision": "FieldTypeKeyword", "judgeType": "FieldTypeKeyword", "contentType": "FieldTypeKeyword",
		"reviewerId": "FieldTypeKeyword", "annotationId": "FieldTypeKeyword", "createdAt": "FieldTypeInteger",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("payload indexes\n got %v\nwant %v", got, want)
	}
	if tf := srv.TenantFields("judgments_test"); len(tf) != 1 || tf[0] != "workspaceId" {
		t.Errorf("tenant fields = %v, want [workspaceId]", tf)
	}
}

func TestQdrantRejectsDimensionMismatch(t *testing.T) {
	t.Parallel()
	srv := qdranttest.Start(t)
	ctx := context.Background()
	idx, err := vector.NewQdrant(ctx, vector.QdrantOptions{Addr: srv.Addr(), Collection: "c", Dim: 8})
	if err != nil {
		t.Fatal(err)
	}
	idx.Close()
	_, err = vector.NewQdrant(ctx, vector.QdrantOptions{Addr: srv.Addr(), Collection: "c", Dim: 16})
	if !errors.Is(err, vector.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
}

func TestQdrantUnavailable(t *testing.T) {
	t.Parallel()
	srv := qdranttest.Start(t)
	ctx := context.Background()
	idx, err := vector.NewQdrant(ctx, vector.QdrantOptions{Addr: srv.Addr(), Collection: "c", Dim: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	srv.Close()
	_, err = idx.Count(ctx, vector.Filter{WorkspaceID: "ws"})
	if !errors.Is(err, vector.ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
}

func TestNewQdrantValidatesOptions(t *testing.T) {
	t.Parallel()
	for _, opts := range []vector.QdrantOptions{
		{Addr: "localhost:6334", Dim: 0},
		{Addr: "no-port", Dim: 4},
		{Addr: ":6334", Dim: 4},
		{Addr: "host:port", Dim: 4},
	} {
		if _, err := vector.NewQdrant(context.Background(), opts); !errors.Is(err, vector.ErrInvalid) {
			t.Errorf("%+v: err = %v, want ErrInvalid", opts, err)
		}
	}
}
