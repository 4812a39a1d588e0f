package expr

import (
	"fmt"

	"goa.design/goa/v3/eval"
)

// ToolsetExpr is a named set of tools. A local toolset declares its tools in
// the design; a registry-sourced toolset (Source set) refers to a toolset
// published in a registry, whose tools are only known at run time.
type ToolsetExpr struct {
	eval.DSLFunc
	metaHolder
	// Name is the toolset name, unique in the design.
	Name string
	// Title is a human-readable title (Goa's Title).
	Title string
	// Description describes the toolset (Goa's Description).
	Description string
	// Tags are the toolset tags in declaration order.
	Tags []Tag
	// Tools are the toolset's tools in declaration order, including the tools
	// that an agent's Export adds.
	Tools []*ToolExpr
	// Source is the registry toolset this toolset refers to; nil for a local
	// toolset.
	Source *RegistrySource
	// MCP is the MCP server toolset this toolset is (FromExternalMCP,
	// FromMCP); nil for any other toolset.
	MCP *MCPSource
	// Publications are the registries the toolset is published to.
	Publications []*Publication
	// ExportedBy is the agent that exports the toolset (agent as tool); nil
	// when no agent exports it. Set by Root.Prepare.
	ExportedBy *AgentExpr
	// At is where the toolset is declared.
	At Location

	versions []valueDecl
	// descriptionAt and titleAt are where Description and Title were called,
	// so that a registry reference can reject them.
	descriptionAt, titleAt Location
	// inlineTools are the tools a FromMCP toolset declares itself, kept for
	// rejection: its tools are its service's methods.
	inlineTools []*ToolExpr
}

// Publication is one PublishTo declaration of a local toolset.
type Publication struct {
	// Registry is the registry the toolset is published to.
	Registry *RegistryExpr
	// At is where PublishTo was called.
	At Location
}

// EvalName returns the toolset name for error messages.
func (t *ToolsetExpr) EvalName() string { return fmt.Sprintf("toolset %q", t.Name) }

// SetDescription implements goaexpr.DescriptionHolder.
func (t *ToolsetExpr) SetDescription(d string) { t.Description, t.descriptionAt = d, DesignLocation() }

// SetTitle implements goaexpr.TitleHolder.
func (t *ToolsetExpr) SetTitle(s string) { t.Title, t.titleAt = s, DesignLocation() }

// SetVersion implements goaexpr.VersionHolder: Version pins the version of a
// registry-sourced toolset. Validation rejects it on local toolsets.
func (t *ToolsetExpr) SetVersion(v string) {
	t.versions = append(t.versions, valueDecl{value: v, at: DesignLocation()})
}

// Version returns the pinned version of a registry-sourced toolset, "" when
// none is pinned.
func (t *ToolsetExpr) Version() string {
	if len(t.versions) == 0 {
		return ""
	}
	return t.versions[0].value
}

// IsRegistrySourced reports whether the toolset refers to a registry toolset.
func (t *ToolsetExpr) IsRegistrySourced() bool { return t.Source != nil }

// TagValues returns the toolset tags in declaration order.
func (t *ToolsetExpr) TagValues() []string { return tagValues(t.Tags) }

// Tool returns the tool with the given authored name, nil if there is none.
func (t *ToolsetExpr) Tool(name string) *ToolExpr {
	for _, tool := range t.Tools {
		if tool.Name == name {
			return tool
		}
	}
	return nil
}

// validate checks the toolset and its tools.
func (t *ToolsetExpr) validate(p *problems) {
	// A registry or MCP toolset named after its source toolset has its name
	// checked once, as the FromRegistry, FromExternalMCP or FromMCP argument.
	switch {
	case t.Source != nil && t.Name == t.Source.Toolset:
	case t.MCP != nil && t.Name == t.MCP.Toolset:
	default:
		if err := CheckName(t.Name); err != nil {
			p.add(t, t.At, "toolset name: %v", err)
		}
	}
	validateTags(p, t, t.Tags)
	switch {
	case t.Source != nil:
		t.validateRegistrySourced(p)
	case t.MCP != nil:
		t.validateMCPSourced(p)
	default:
		t.validateLocal(p)
	}
	seen := make(map[string]*ToolExpr, len(t.Tools))
	for _, tool := range t.Tools {
		tool.validate(p)
		if first, dup := seen[tool.Name]; dup && tool.Name != "" {
			p.add(tool, tool.At, "duplicate tool %q (first declared at %s)", tool.Name, first.At)
			continue
		}
		seen[tool.Name] = tool
	}
	t.validateGoIdentifiers(p)
}

// validateLocal checks the rules of a toolset declared in the design.
func (t *ToolsetExpr) validateLocal(p *problems) {
	for _, v := range t.versions {
		p.add(t, v.at, "Version(%q) in a local toolset: Version only pins a toolset declared with FromRegistry", v.value)
	}
	if len(t.Tools) == 0 {
		p.add(t, t.At, "declares no tools")
	}
	seen := make(map[*RegistryExpr]Location, len(t.Publications))
	for _, pub := range t.Publications {
		if pub.Registry == nil {
			p.add(t, pub.At, "PublishTo needs a registry declared with Registry, got nil")
			continue
		}
		if first, dup := seen[pub.Registry]; dup {
			p.add(t, pub.At, "already published to registry %q (at %s)", pub.Registry.Name, first)
			continue
		}
		seen[pub.Registry] = pub.At
	}
}

// validateRegistrySourced checks the rules of a registry reference: its tools,
// tags and publications belong to the registry, not to this design.
func (t *ToolsetExpr) validateRegistrySourced(p *problems) {
	src := t.Source
	if src.Registry == nil {
		p.add(t, src.At, "FromRegistry needs a registry declared with Registry, got nil")
	}
	if err := CheckName(src.Toolset); err != nil {
		p.add(t, src.At, "registry toolset name in FromRegistry: %v", err)
	}
	for _, tool := range t.Tools {
		p.add(t, tool.At, "inline Tool %q on a registry toolset: its tools come from the registry", tool.Name)
	}
	for _, tag := range t.Tags {
		p.add(t, tag.At, "Tags(%q) on a registry toolset: its tags come from the registry and cannot be overridden", tag.Value)
	}
	if !t.descriptionAt.IsZero() {
		p.add(t, t.descriptionAt, "Description on a registry toolset: its description comes from the registry and cannot be overridden")
	}
	if !t.titleAt.IsZero() {
		p.add(t, t.titleAt, "Title on a registry toolset: its title comes from the registry and cannot be overridden")
	}
	for _, pub := range t.Publications {
		p.add(t, pub.At, "PublishTo on a registry toolset: only a local toolset can be published")
	}
	for i, v := range t.versions {
		if i > 0 {
			p.add(t, v.at, "Version(%q) repeats the version (first set to %q at %s)", v.value, t.versions[0].value, t.versions[0].at)
			continue
		}
		if err := CheckVersion(v.value); err != nil {
			p.add(t, v.at, "%v", err)
		}
	}
}
