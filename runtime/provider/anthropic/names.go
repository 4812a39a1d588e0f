package anthropic

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// names maps the names of one request's tools to the portable names the
// Messages API accepts and back, with package discovery's mapping.
type names struct {
	m *discovery.NameMap
}

// newNames maps every name a request renders. Two names converging on one
// provider name fail before sending with an error matching both
// discovery.ErrNameCollision and model.ErrInvalidRequest.
func newNames(list []string) (*names, error) {
	m, err := discovery.NewNameMap(list...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (%w)", Provider, err, model.ErrInvalidRequest)
	}
	return &names{m: m}, nil
}

// provider returns the provider name of a tool name, declared or not (a
// history may name tools no longer declared).
func (n *names) provider(name string) string {
	if p, ok := n.m.Portable(name); ok {
		return p
	}
	return discovery.PortableName(name)
}

// neutral returns the declared tool name behind a provider name. A name no
// declared tool maps to comes back as it is, so the runtime answers the
// call as one of an unknown tool.
func (n *names) neutral(p string) string {
	if name, ok := n.m.Original(p); ok {
		return name
	}
	return p
}

// declared reports the provider name of a tool the request declares (its
// application tools, discovery tool, discovered tools and, natively, its
// deferred tools); false for any other tool.
func (n *names) declared(name string) (string, bool) {
	return n.m.Portable(name)
}
