// Command writecatalog writes a large catalog made from a small one, as
// JSON lines of {"name", "title", "description", "parameters"} that
// goa-discovery search reads with --tools:
//
//	go run ./internal/benchcatalog/writecatalog -kind distinct -n 100000 testdata/devset/tools.jsonl > /tmp/distinct.jsonl
//
// The kinds are those of package benchcatalog: repeated, distinct and
// shuffled.
package main
