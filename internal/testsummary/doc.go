// Command testsummary reads `go test -json` output on its standard input and
// prints what `go test` prints without -v (each package's result, and the
// output of every failed test), then, when tests of real components
// skipped, one line naming each absent component, why, and how many tests it
// cost. scripts/test runs the tests through it:
//
//	go test -json -race ./... | go run ./internal/testsummary
//
// The skips it counts are those of internal/realdeps.
package main
