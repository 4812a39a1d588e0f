// Package integration runs durable runs against a real Temporal server in
// process (go.temporal.io/server's temporaltest), with workers in child
// processes, one of them killed mid-run. It is a module of its own so that
// the main module stays free of the server's dependencies; .ci/run runs it
// as a step of its own.
package integration
