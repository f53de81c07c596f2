module github.com/opencollab/backend/deploy/local

go 1.26

require (
	github.com/getkin/kin-openapi v0.153.0
	github.com/google/go-containerregistry v0.22.1 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
)
