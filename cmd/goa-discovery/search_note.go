package main

// What search says when it finds nothing: the note of a discovery answer
// that found no tool, so that the CLI and the runtime's discovery tool say
// the same thing, such as that a query of frame words only ("please help
// me") names nothing searchable.

import (
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// noMatchNote returns the note a discovery answer gives for a query that
// found no tool. It is discovery's own answer, taken from a catalog with
// no tools, where every query finds nothing.
func noMatchNote(query string) (string, error) {
	empty, err := discovery.NewCatalog(nil, nil)
	if err != nil {
		return "", err
	}
	answer, err := empty.Answer(model.DiscoveryCall{ID: "search", Query: query}, 0)
	if err != nil {
		return "", err
	}
	return answer.Note, nil
}
