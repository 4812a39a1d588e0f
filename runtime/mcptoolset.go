package runtime

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// MCPToolset is a dynamic MCP toolset an agent uses: the tools that MCP
// server Server lists, read from the source its session is registered as
// (runtime/mcp.RegisterSource, which the toolset's generated Register
// calls). The runtime reads it once per planning step, after the agent's
// Registries, the way it reads a registry's toolset.
type MCPToolset struct {
	// Server is the name the server's session is registered under.
	Server string `json:"server"`
	// Toolset is the toolset's name.
	Toolset string `json:"toolset"`
	// Deferred loads the toolset's tools through discovery.
	Deferred bool `json:"deferred,omitempty"`
}

// source returns the registry source the runtime reads the toolset through.
func (m MCPToolset) source() (RegistrySource, error) {
	if err := tools.ValidateName(m.Server); err != nil {
		return RegistrySource{}, fmt.Errorf("server: %w", err)
	}
	if err := tools.ValidateName(m.Toolset); err != nil {
		return RegistrySource{}, fmt.Errorf("server %q: toolset: %w", m.Server, err)
	}
	return RegistrySource{Registry: m.Server, Toolset: m.Toolset, Deferred: m.Deferred}, nil
}
