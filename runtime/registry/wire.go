package registry

import (
	"encoding/json"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// The records of the protocol. Toolsets travel as tools.ToolsetSchema, the
// one wire record of a toolset; these types only add what a registration and
// a call carry around it.

// PublishRequest publishes a toolset.
type PublishRequest struct {
	// Toolset is the published record: a generated Toolset() value or a
	// runtime-authored declaration. Its RegisteredAt must be zero; the
	// registry sets it.
	Toolset tools.ToolsetSchema `json:"toolset"`
	// Fingerprint, when set, must equal the registry's fingerprint of
	// Toolset (contract.Fingerprint); when empty the registry computes it.
	Fingerprint tools.Fingerprint `json:"fingerprint,omitempty"`
	// Revision is the deployment-issued revision of the provider.
	Revision string `json:"revision"`
	// Endpoint is the absolute http or https URL that executes the
	// toolset's tools; the registry forwards calls there.
	Endpoint string `json:"endpoint"`
}

// PublishStatus says what a publish changed.
type PublishStatus string

// Publish outcomes.
const (
	// Published: the toolset was not registered before.
	Published PublishStatus = "published"
	// Unchanged: the same fingerprint and revision were already registered.
	Unchanged PublishStatus = "unchanged"
	// Replaced: a registration with another token was replaced; its token
	// is no longer admitted.
	Replaced PublishStatus = "replaced"
)

// Registration is a toolset as the registry holds it.
type Registration struct {
	// Toolset is the published record, RegisteredAt set to when this
	// registration was first accepted.
	Toolset tools.ToolsetSchema `json:"toolset"`
	// Fingerprint is the fingerprint of Toolset.
	Fingerprint tools.Fingerprint `json:"fingerprint"`
	// Revision is the provider's deployment-issued revision.
	Revision string `json:"revision"`
	// Token is NewToken(Fingerprint, Revision).
	Token Token `json:"token"`
	// Endpoint executes the toolset's tools.
	Endpoint string `json:"endpoint"`
}

// Resolved returns the consumer's view of the registration: everything but
// the provider's endpoint.
func (r *Registration) Resolved() ResolvedToolset {
	return ResolvedToolset{Toolset: r.Toolset, Fingerprint: r.Fingerprint, Revision: r.Revision, Token: r.Token}
}

// PublishResult answers a publish.
type PublishResult struct {
	// Status says what changed.
	Status PublishStatus `json:"status"`
	// Registration is the registration now current.
	Registration Registration `json:"registration"`
}

// WithdrawRequest removes a toolset. Token must be its current token, so a
// provider cannot withdraw a registration that replaced its own.
type WithdrawRequest struct {
	// Toolset is the toolset name.
	Toolset string `json:"toolset"`
	// Token is the current registration token.
	Token Token `json:"token"`
}

// ToolsetRef names a toolset to resolve.
type ToolsetRef struct {
	// Name is the toolset name.
	Name string `json:"name"`
	// Version, when set, must be the toolset's current version; it checks
	// the registration, it never selects an older one.
	Version string `json:"version,omitempty"`
}

// ResolveRequest resolves named toolsets, all or none.
type ResolveRequest struct {
	// Toolsets are the toolsets to resolve, each named once.
	Toolsets []ToolsetRef `json:"toolsets"`
	// Cursor, when set, asks for the page of the resolution that the
	// Next of the previous page names; the request must name the same
	// toolsets.
	Cursor string `json:"cursor,omitempty"`
}

// ResolvedToolset is a registration as consumers see it.
type ResolvedToolset struct {
	// Toolset is the registered record.
	Toolset tools.ToolsetSchema `json:"toolset"`
	// Fingerprint is the fingerprint of Toolset.
	Fingerprint tools.Fingerprint `json:"fingerprint"`
	// Revision is the provider's revision.
	Revision string `json:"revision"`
	// Token is the token calls to these tools must carry.
	Token Token `json:"token"`
}

// Catalog is one consistent read of the registry.
type Catalog struct {
	// Generation increases with every change to the registry, across
	// restarts; two reads with the same Generation saw the same toolsets.
	Generation uint64 `json:"generation"`
	// Toolsets are the toolsets read, sorted by name for a whole-registry
	// read and in request order for a resolution.
	Toolsets []ResolvedToolset `json:"toolsets"`
	// Next, in an answer over HTTP, is the cursor of the next page of the
	// same read (the "cursor" query parameter of a list, the Cursor of a
	// resolution); empty on the last page. A Client follows it and returns
	// whole catalogs.
	Next string `json:"next,omitempty"`
}

// CallRequest is a call to a resolved tool. The registry forwards the same
// record to the provider's endpoint.
type CallRequest struct {
	// CallID identifies the call; a retry carries the same ID.
	CallID string `json:"call_id"`
	// Tool is the tool called.
	Tool tools.Ident `json:"tool"`
	// Token is the registration token the call was accepted under.
	Token Token `json:"token"`
	// Payload is the call's JSON arguments, as the model sent them.
	Payload json.RawMessage `json:"payload"`
}

// CallResult is the recorded outcome of an executed call.
type CallResult struct {
	// CallID identifies the call.
	CallID string `json:"call_id"`
	// Tool is the tool called.
	Tool tools.Ident `json:"tool"`
	// Token is the token the call was admitted under.
	Token Token `json:"token"`
	// Result is the tool's JSON result; empty when it failed or returns
	// nothing.
	Result json.RawMessage `json:"result,omitempty"`
	// ToolError is the tool's own failure, reported to the model; empty
	// when the tool succeeded.
	ToolError string `json:"tool_error,omitempty"`
	// CompletedAt is when the registry recorded the outcome.
	CompletedAt time.Time `json:"completed_at"`
}

// ProviderResult is what a provider's endpoint answers to a forwarded call
// that ran: its result, or its failure.
type ProviderResult struct {
	// Result is the tool's JSON result.
	Result json.RawMessage `json:"result,omitempty"`
	// ToolError is the tool's own failure.
	ToolError string `json:"tool_error,omitempty"`
}
