module github.com/opencollab/backend/svc-content

go 1.26.0

require (
	github.com/gin-gonic/gin v1.12.0
	github.com/redis/go-redis/v9 v9.23.0
	go.mongodb.org/mongo-driver/v2 v2.9.3
	go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp v0.72.0
	golang.org/x/net v0.59.0
)

require github.com/gorilla/websocket v1.5.3 // indirect
