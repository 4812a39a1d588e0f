// Package design is the example goa-discovery design: a customer support
// desk with ticket, customer and knowledge base toolsets, a company tool
// registry, and agents that keep a few tools immediate and find the rest
// through search.
//
// Generate its packages into example/gen with:
//
//	go run ./cmd/goa-discovery gen -o example/gen github.com/goa-discovery/goa-discovery/example/design
package design
