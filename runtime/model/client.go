package model

import (
	"context"
	"strconv"
)

// Client calls a model provider. Implementations are the provider adapters;
// tests use scripted doubles.
type Client interface {
	// Complete sends req and returns the whole response.
	Complete(ctx context.Context, req *Request) (*Response, error)
	// Stream sends req and returns its answer as events.
	Stream(ctx context.Context, req *Request) (Stream, error)
	// Capabilities reports what the client can do with a model.
	Capabilities(model string) Capabilities
}

// DiscoveryMode says how a client renders tool discovery for a model.
type DiscoveryMode int

// Discovery modes.
const (
	// DiscoveryUnsupported: the client cannot render discovery; a request
	// that needs it fails with ErrToolSearchUnsupported.
	DiscoveryUnsupported DiscoveryMode = iota
	// DiscoveryEmulated: the discovery tool is an ordinary tool and
	// discovered tools are declared as ordinary tools.
	DiscoveryEmulated
	// DiscoveryNative: the provider's own tool search and deferred loading.
	DiscoveryNative
)

// String returns "unsupported", "emulated" or "native".
func (m DiscoveryMode) String() string {
	switch m {
	case DiscoveryUnsupported:
		return "unsupported"
	case DiscoveryEmulated:
		return "emulated"
	case DiscoveryNative:
		return "native"
	}
	return "DiscoveryMode(" + strconv.Itoa(int(m)) + ")"
}

// Capabilities describes what a client can do with one model.
type Capabilities struct {
	// Discovery says how discovery is rendered.
	Discovery DiscoveryMode
	// Strict describes strict tool schemas.
	Strict StrictLimits
}

// StrictLimits describes a model's support for strict tool schemas.
type StrictLimits struct {
	// Supported reports whether strict tools are accepted at all.
	Supported bool
	// MaxTools is the most strict tools one request may declare; 0 means
	// no limit. Beyond it, discovered tools are declared non-strict in
	// order of first discovery.
	MaxTools int
	// SubsetOnly reports that strict schemas must stay within the
	// provider's strict-capable subset of JSON Schema.
	SubsetOnly bool
}
