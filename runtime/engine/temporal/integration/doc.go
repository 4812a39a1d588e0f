// Package integration runs durable runs against a real Temporal server in
// process (internal/devserver, the server cmd/devserver runs), with workers
// in child processes, one of them killed mid-run. It is a module of its own
// so that the main module stays free of the server's dependencies; .ci/run
// runs it as a step of its own. Its commands are the local server
// (cmd/devserver) and the walk of docs/temporal.md (cmd/walk).
package integration
