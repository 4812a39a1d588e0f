package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// RegistryClient reads a tool registry and forwards calls to the providers
// behind it. The registry package implements it over HTTP; tests use
// in-memory doubles.
type RegistryClient interface {
	// ResolveToolset reads the current registration of one toolset. A
	// missing toolset is an error.
	ResolveToolset(ctx context.Context, toolset string) (*ResolvedToolset, error)
	// ListToolsets reads every toolset the registry holds; an empty
	// registry is valid.
	ListToolsets(ctx context.Context) ([]ResolvedToolset, error)
	// CallTool forwards an admitted call, carrying the registration token
	// it was admitted under, and returns the tool's JSON result.
	CallTool(ctx context.Context, call *RegistryCall) (json.RawMessage, error)
}

// PinnedVersionResolver is implemented by a RegistryClient whose registry
// checks a pinned version itself, so that a source pinned to a version that
// is no longer current fails with the registry's own error. The runtime
// resolves pinned sources through it when the client has it, and checks the
// version it gets either way.
type PinnedVersionResolver interface {
	// ResolveToolsetVersion reads the current registration of one toolset,
	// failing when its current version is not version.
	ResolveToolsetVersion(ctx context.Context, toolset, version string) (*ResolvedToolset, error)
}

// MCPSource is implemented by a RegistryClient that serves the tools one
// MCP server lists (runtime/mcp's Source): calls of its tools are recorded
// with SourceMCP and the server's name, and are forwarded to the client as
// registry calls are.
type MCPSource interface {
	// MCPServer names the MCP server.
	MCPServer() string
}

// ResolvedToolset is one toolset as a registry serves it.
type ResolvedToolset struct {
	// Schema is the toolset's wire record.
	Schema tools.ToolsetSchema
	// Fingerprint identifies the registration's content.
	Fingerprint tools.Fingerprint
	// Token is the registration token calls admitted under this
	// registration carry.
	Token string
	// Generation identifies the state of the registry the toolset was
	// read in: two reads with different non-zero generations saw the
	// registry change between them. Zero means the client does not know.
	Generation uint64
}

// ToolsetRef names a toolset to resolve and, when Version is set, the
// version it must currently have.
type ToolsetRef struct {
	// Name is the toolset's name.
	Name string
	// Version, when set, must be the toolset's current version.
	Version string
}

// ToolsetsResolver is implemented by a RegistryClient that resolves several
// named toolsets in one consistent read, all or none, answering them in
// request order. The runtime reads all the named sources a step takes from
// one registry through it when the client has it, so that no change to the
// registry falls between them; the registry checks pinned versions as with
// PinnedVersionResolver.
type ToolsetsResolver interface {
	// ResolveToolsets reads the current registrations of refs, each named
	// once, in one read of the registry.
	ResolveToolsets(ctx context.Context, refs []ToolsetRef) ([]ResolvedToolset, error)
}

// RegistryCall is an admitted call forwarded to a registry.
type RegistryCall struct {
	// RunID is the run making the call.
	RunID string
	// CallID is the model's id of the call.
	CallID string
	// Step is the planning step that admitted the call. A model may give
	// calls of different steps one id, so a registry keys a call by run,
	// step and call id.
	Step int
	// Tool is the called tool.
	Tool tools.Ident
	// Token is the registration token the call was admitted under.
	Token string
	// Arguments are the validated arguments, verbatim.
	Arguments json.RawMessage
}

// RegistrySource is a registry's toolset, or a whole registry, that an agent
// uses.
type RegistrySource struct {
	// Registry names a registry registered with RegisterRegistry.
	Registry string `json:"registry"`
	// Toolset names one toolset; empty means every toolset of the registry.
	Toolset string `json:"toolset,omitempty"`
	// Version, when set, must equal the toolset's current version; it
	// checks the version, it does not select an archived one.
	Version string `json:"version,omitempty"`
	// Deferred loads the source's tools through discovery.
	Deferred bool `json:"deferred,omitempty"`
}

func (s RegistrySource) validate() error {
	if err := tools.ValidateName(s.Registry); err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	if s.Toolset == "" {
		if s.Version != "" {
			return fmt.Errorf("registry %q: a version pins a named toolset, not a whole registry", s.Registry)
		}
		return nil
	}
	if err := tools.ValidateName(s.Toolset); err != nil {
		return fmt.Errorf("registry %q: toolset: %w", s.Registry, err)
	}
	return nil
}

// String returns "registry/toolset@version", or "registry/*" for a whole
// registry.
func (s RegistrySource) String() string {
	ts := s.Toolset
	if ts == "" {
		ts = "*"
	}
	if s.Version != "" {
		ts += "@" + s.Version
	}
	return s.Registry + "/" + ts
}

// RegistryTools chooses an agent's registry sources per planning step from
// the run's labels. Attach it with WithRegistryTools. Run policy still
// filters whatever the sources hold.
type RegistryTools interface {
	// Resolve adds sources to catalog with IncludeToolset and
	// IncludeRegistry. An error fails the step.
	Resolve(ctx context.Context, catalog *RegistryCatalog) error
	// Allows reports whether saved calls bound to src may still be used,
	// for example replayed, in a run.
	Allows(src RegistrySource) bool
}

// RegistryCatalog collects the registry sources of one planning step.
type RegistryCatalog struct {
	labels  map[string]string
	sources []RegistrySource
}

// RunLabels returns a copy of the run's labels.
func (c *RegistryCatalog) RunLabels() map[string]string { return maps.Clone(c.labels) }

// IncludeOption refines an included source.
type IncludeOption func(*RegistrySource)

// IncludeDeferred loads the source's tools through discovery.
func IncludeDeferred() IncludeOption { return func(s *RegistrySource) { s.Deferred = true } }

// IncludeVersion requires the toolset's current version to be v.
func IncludeVersion(v string) IncludeOption { return func(s *RegistrySource) { s.Version = v } }

// IncludeToolset adds one toolset of a registry to the step's catalog.
func (c *RegistryCatalog) IncludeToolset(registry, toolset string, opts ...IncludeOption) error {
	if toolset == "" {
		return errors.New("include toolset: empty toolset name")
	}
	return c.include(RegistrySource{Registry: registry, Toolset: toolset}, opts)
}

// IncludeRegistry adds every toolset of a registry to the step's catalog.
func (c *RegistryCatalog) IncludeRegistry(registry string, opts ...IncludeOption) error {
	return c.include(RegistrySource{Registry: registry}, opts)
}

func (c *RegistryCatalog) include(src RegistrySource, opts []IncludeOption) error {
	for _, o := range opts {
		o(&src)
	}
	if err := src.validate(); err != nil {
		return fmt.Errorf("include %s: %w", src, err)
	}
	c.sources = append(c.sources, src)
	return nil
}
