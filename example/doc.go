// Package example is a realistic goa-discovery application: the design in
// example/design, the packages gen writes from it in example/gen (committed,
// and regenerated and compared by CI), and the quickstart program in
// example/cmd/assistant. Its tests check the generated code against the
// runtime: search counts, fingerprints, codecs, registration and whole runs.
package example
