package anthropic

import (
	"slices"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// declarations are a request's tools sorted by what they are to the
// conversation, in the order package discovery declared them.
type declarations struct {
	app        []model.ToolDefinition
	discovery  *model.ToolDefinition
	discovered []model.ToolDefinition
	// deferred is the permitted catalog of deferred tools.
	deferred []model.ToolDefinition
	// retained are discovered tools withdrawn by mid-conversation tool
	// changes that stay declared deferred, so the tools array keeps its
	// bytes (see planToolChanges).
	retained []slotted
}

// classify sorts the tools of a request that discovery.Check accepted.
func classify(req *model.Request) *declarations {
	d := &declarations{deferred: req.Discovery.Deferred}
	for i := range req.Tools {
		t := &req.Tools[i]
		switch t.Kind {
		case model.ToolDiscovery:
			d.discovery = t
		case model.ToolDiscovered:
			d.discovered = append(d.discovered, *t)
		default:
			d.app = append(d.app, *t)
		}
	}
	return d
}

// names returns every name the mode renders.
func (d *declarations) names(m mode) []string {
	var out []string
	for _, ts := range [][]model.ToolDefinition{d.app, d.discovered} {
		for _, t := range ts {
			out = append(out, t.Name)
		}
	}
	if d.discovery != nil {
		out = append(out, d.discovery.Name)
	}
	if m != modeEmulated {
		for _, t := range d.deferred {
			out = append(out, t.Name)
		}
	}
	for _, r := range d.retained {
		out = append(out, r.def.Name)
	}
	return out
}

// render returns the tool declarations of the mode.
//
// Emulated, and native with discovery off: the application's tools, the
// discovery tool and the discovered tools, as ordinary tools in the
// request's order (deferred tools need a search tool next to them).
//
// Native: the application's tools, then the discovery tool (client search)
// or the hosted search tool, then every deferred tool with defer_loading:
// the permitted catalog in its order, a discovered tool replacing the
// catalog entry of its name (its snapshot is what the model was shown),
// and discovered tools outside the catalog after it, with the tools that
// mid-conversation tool changes withdrew back at their places. The
// declarations are the same on every step of a run whatever has been
// discovered.
//
// The cache breakpoint goes on the last non-deferred tool.
func (d *declarations) render(names *names, m mode, hosted HostedSearch, strict model.StrictLimits) ([]anthropic.BetaToolUnionParam, error) {
	var out []anthropic.BetaToolUnionParam
	for _, t := range d.app {
		out = append(out, toolParam(t, names, false))
	}
	switch {
	case m == modeHostedSearch && d.discovery != nil:
		out = append(out, hostedTool(hosted))
	case d.discovery != nil:
		out = append(out, toolParam(*d.discovery, names, false))
	}
	if m == modeEmulated || d.discovery == nil {
		for _, t := range d.discovered {
			out = append(out, toolParam(t, names, false))
		}
		if len(out) > 0 {
			setCacheBreakpoint(&out[len(out)-1])
		}
		return out, checkStrictLimits(slices.Concat(d.app, d.discovered), strict)
	}
	// The search tool is declared, so at least one tool is non-deferred.
	setCacheBreakpoint(&out[len(out)-1])
	deferred := d.deferredTools()
	if len(deferred) > maxDeferredTools {
		return nil, invalid(-1, -1, RuleDeferredLimit, "%d deferred tools would be sent; the API accepts at most %d a request", len(deferred), maxDeferredTools)
	}
	for _, t := range deferred {
		out = append(out, toolParam(t, names, true))
	}
	if err := checkStrictLimits(slices.Concat(d.app, deferred), strict); err != nil {
		return nil, err
	}
	return out, nil
}

// deferredTools merges the permitted catalog, the discovered tools and the
// retained ones.
func (d *declarations) deferredTools() []model.ToolDefinition {
	discovered := make(map[string]int, len(d.discovered))
	for i, t := range d.discovered {
		discovered[t.Name] = i
	}
	used := make([]bool, len(d.discovered))
	out := make([]model.ToolDefinition, 0, len(d.deferred)+len(d.discovered))
	seen := make(map[string]bool, len(d.deferred))
	for _, t := range d.deferred {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		if i, ok := discovered[t.Name]; ok {
			t, used[i] = d.discovered[i], true
		}
		out = append(out, t)
	}
	for i, t := range d.discovered {
		if !used[i] {
			out = append(out, t)
		}
	}
	return withRetained(out, d.retained)
}

// toolParam renders one tool; its schema goes out byte for byte.
func toolParam(t model.ToolDefinition, names *names, deferred bool) anthropic.BetaToolUnionParam {
	p := &anthropic.BetaToolParam{
		Name:        names.provider(t.Name),
		InputSchema: param.Override[anthropic.BetaToolInputSchemaParam](t.Parameters),
	}
	if t.Description != "" {
		p.Description = anthropic.String(t.Description)
	}
	if t.Strict {
		p.Strict = anthropic.Bool(true)
	}
	if deferred {
		p.DeferLoading = anthropic.Bool(true)
	}
	return anthropic.BetaToolUnionParam{OfTool: p}
}

// hostedTool declares the provider's search tool.
func hostedTool(s HostedSearch) anthropic.BetaToolUnionParam {
	if s == SearchRegex {
		return anthropic.BetaToolUnionParam{OfToolSearchToolRegex20251119: &anthropic.BetaToolSearchToolRegex20251119Param{
			Type: anthropic.BetaToolSearchToolRegex20251119TypeToolSearchToolRegex20251119,
		}}
	}
	return anthropic.BetaToolUnionParam{OfToolSearchToolBm25_20251119: &anthropic.BetaToolSearchToolBm25_20251119Param{
		Type: anthropic.BetaToolSearchToolBm25_20251119TypeToolSearchToolBm25_20251119,
	}}
}

// hostedToolName is the name the provider gives its search tool in
// server_tool_use blocks.
func hostedToolName(s HostedSearch) string {
	if s == SearchRegex {
		return string(anthropic.BetaServerToolUseBlockParamNameToolSearchToolRegex)
	}
	return string(anthropic.BetaServerToolUseBlockParamNameToolSearchToolBm25)
}

func setCacheBreakpoint(t *anthropic.BetaToolUnionParam) {
	cc := anthropic.NewBetaCacheControlEphemeralParam()
	switch {
	case t.OfTool != nil:
		t.OfTool.CacheControl = cc
	case t.OfToolSearchToolBm25_20251119 != nil:
		t.OfToolSearchToolBm25_20251119.CacheControl = cc
	case t.OfToolSearchToolRegex20251119 != nil:
		t.OfToolSearchToolRegex20251119.CacheControl = cc
	}
}
