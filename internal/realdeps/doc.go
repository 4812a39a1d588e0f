// Package realdeps is the one way a test says that a real component it needs
// (redis-server, the npm MCP servers, the npm embedding model, a tmpfs mount)
// is absent. Outside CI the test skips with a message of a fixed form,
// which internal/testsummary finds in `go test -json` output to end a run
// with one line naming every skipped component and why; under CI=true the
// test fails instead, since CI (.ci/run, through scripts/test-deps) installs
// every component.
package realdeps
