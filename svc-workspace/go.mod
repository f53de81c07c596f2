module github.com/opencollab/backend/svc-workspace

go 1.26

require (
	github.com/gin-gonic/gin v1.12.0
	github.com/redis/go-redis/v9 v9.23.0
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1
	go.mongodb.org/mongo-driver/v2 v2.9.3
	go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp v0.72.0
)
