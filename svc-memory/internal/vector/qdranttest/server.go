// Package qdranttest runs an in-process gRPC server that implements the
// part of the Qdrant API the vector.Qdrant adapter calls (health check,
// collection exists/create/get, payload index creation, upsert, delete,
// count, query), backed by a brute-force in-memory store that evaluates
// Qdrant filter conditions. Tests use it to exercise the adapter without
// Docker; point QDRANT_ADDR at Addr() to run a whole service against it.
//
// Calls outside that subset answer UNIMPLEMENTED, and filter conditions the
// store does not understand answer INVALID_ARGUMENT, so an adapter change
// that relies on more of the API fails loudly here.
package qdranttest

import (
	"context"
	"fmt"
	"net"
	"sync"
	"testing"

	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Server is the fake Qdrant.
type Server struct {
	lis  net.Listener
	grpc *grpc.Server

	mu          sync.Mutex
	collections map[string]*collection
}

// New starts a server on 127.0.0.1 with a free port.
func New() (*Server, error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{lis: lis, grpc: grpc.NewServer(), collections: map[string]*collection{}}
	qdrant.RegisterQdrantServer(s.grpc, &healthService{})
	qdrant.RegisterCollectionsServer(s.grpc, &collectionsService{s: s})
	qdrant.RegisterPointsServer(s.grpc, &pointsService{s: s})
	go s.grpc.Serve(lis) //nolint:errcheck // returns when stopped
	return s, nil
}

// Start is New for tests: it fails tb on error and stops the server at
// cleanup.
func Start(tb testing.TB) *Server {
	tb.Helper()
	s, err := New()
	if err != nil {
		tb.Fatalf("qdranttest: %v", err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Addr is host:port of the gRPC endpoint.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// Close stops the server.
func (s *Server) Close() { s.grpc.Stop() }

// PayloadIndexes returns the indexed payload fields of a collection and
// their types ("keyword", "integer", ...), and whether the collection
// exists.
func (s *Server) PayloadIndexes(name string) (map[string]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.collections[name]
	if !ok {
		return nil, false
	}
	out := map[string]string{}
	for field, typ := range c.indexes {
		out[field] = typ.String()
	}
	return out, true
}

// TenantFields returns the payload fields indexed with is_tenant.
func (s *Server) TenantFields(name string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	if c, ok := s.collections[name]; ok {
		for f := range c.tenant {
			out = append(out, f)
		}
	}
	return out
}

// collection returns the named collection or NOT_FOUND; s.mu is held.
func (s *Server) collection(name string) (*collection, error) {
	c, ok := s.collections[name]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Not found: Collection `%s` doesn't exist!", name)
	}
	return c, nil
}

type healthService struct {
	qdrant.UnimplementedQdrantServer
}

func (healthService) HealthCheck(context.Context, *qdrant.HealthCheckRequest) (*qdrant.HealthCheckReply, error) {
	return &qdrant.HealthCheckReply{Title: "qdranttest", Version: "1.15.0"}, nil
}

type collectionsService struct {
	qdrant.UnimplementedCollectionsServer
	s *Server
}

func (cs *collectionsService) CollectionExists(_ context.Context, req *qdrant.CollectionExistsRequest) (*qdrant.CollectionExistsResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	_, ok := cs.s.collections[req.GetCollectionName()]
	return &qdrant.CollectionExistsResponse{Result: &qdrant.CollectionExists{Exists: ok}}, nil
}

func (cs *collectionsService) Create(_ context.Context, req *qdrant.CreateCollection) (*qdrant.CollectionOperationResponse, error) {
	params := req.GetVectorsConfig().GetParams()
	if params == nil || params.GetSize() == 0 {
		return nil, status.Error(codes.InvalidArgument, "qdranttest: only a single unnamed dense vector is supported")
	}
	if params.GetDistance() != qdrant.Distance_Cosine {
		return nil, status.Error(codes.InvalidArgument, "qdranttest: only cosine distance is supported")
	}
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	name := req.GetCollectionName()
	if _, ok := cs.s.collections[name]; ok {
		return nil, status.Errorf(codes.AlreadyExists, "Wrong input: Collection `%s` already exists!", name)
	}
	cs.s.collections[name] = newCollection(int(params.GetSize()))
	return &qdrant.CollectionOperationResponse{Result: true}, nil
}

func (cs *collectionsService) Get(_ context.Context, req *qdrant.GetCollectionInfoRequest) (*qdrant.GetCollectionInfoResponse, error) {
	cs.s.mu.Lock()
	defer cs.s.mu.Unlock()
	c, err := cs.s.collection(req.GetCollectionName())
	if err != nil {
		return nil, err
	}
	schema := map[string]*qdrant.PayloadSchemaInfo{}
	for field, typ := range c.indexes {
		schema[field] = &qdrant.PayloadSchemaInfo{DataType: schemaType(typ)}
	}
	count := uint64(len(c.points))
	return &qdrant.GetCollectionInfoResponse{Result: &qdrant.CollectionInfo{
		Status: qdrant.CollectionStatus_Green,
		Config: &qdrant.CollectionConfig{Params: &qdrant.CollectionParams{
			VectorsConfig: qdrant.NewVectorsConfig(&qdrant.VectorParams{Size: uint64(c.dim), Distance: qdrant.Distance_Cosine}),
		}},
		PayloadSchema: schema,
		PointsCount:   &count,
	}}, nil
}

func schemaType(t qdrant.FieldType) qdrant.PayloadSchemaType {
	switch t {
	case qdrant.FieldType_FieldTypeKeyword:
		return qdrant.PayloadSchemaType_Keyword
	case qdrant.FieldType_FieldTypeInteger:
		return qdrant.PayloadSchemaType_Integer
	}
	return qdrant.PayloadSchemaType_UnknownType
}

func completed() *qdrant.PointsOperationResponse {
	return &qdrant.PointsOperationResponse{Result: &qdrant.UpdateResult{Status: qdrant.UpdateStatus_Completed}}
}

func invalid(format string, args ...any) error {
	return status.Error(codes.InvalidArgument, fmt.Sprintf(format, args...))
}
