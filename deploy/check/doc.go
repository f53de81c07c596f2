// Package check holds tests, and only tests, for the deployment files of the repository: the
// Dockerfiles, docker-compose.yml and the Kustomize tree under deploy/k8s. They load each file
// with the tool's own loader (compose-go, kustomize) and decode every Kubernetes object strictly
// into its typed API struct, so a typo or a forgotten service fails CI instead of a deploy.
//
// Run: cd deploy/check && go test ./...
package check
