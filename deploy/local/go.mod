module github.com/opencollab/backend/deploy/local

go 1.26
