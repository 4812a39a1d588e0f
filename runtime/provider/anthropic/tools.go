package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

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
}

// classify sorts req's tools and checks the rules that do not depend on
// the rendering mode.
func classify(req *model.Request, strict model.StrictLimits) (*declarations, error) {
	d := &declarations{deferred: req.Discovery.Deferred}
	for i := range req.Tools {
		t := &req.Tools[i]
		switch t.Kind {
		case model.ToolApplication:
			d.app = append(d.app, *t)
		case model.ToolDiscovery:
			if d.discovery != nil {
				return nil, invalid(-1, -1, RuleDiscoveryTool, "two discovery tools declared: %q and %q", d.discovery.Name, t.Name)
			}
			d.discovery = t
		case model.ToolDiscovered:
			d.discovered = append(d.discovered, *t)
		default:
			return nil, invalid(-1, -1, RuleDiscoveryTool, "tool %q has unknown kind %q", t.Name, t.Kind)
		}
	}
	if req.Discovery.Enabled != (d.discovery != nil) {
		return nil, invalid(-1, -1, RuleDiscoveryTool, "discovery enabled is %t but the request declares %d discovery tools", req.Discovery.Enabled, btoi(d.discovery != nil))
	}
	strictCount := 0
	for _, t := range append(append([]model.ToolDefinition(nil), req.Tools...), req.Discovery.Deferred...) {
		if err := checkSchema(t); err != nil {
			return nil, err
		}
		if !t.Strict {
			continue
		}
		if !strict.Supported {
			return nil, invalid(-1, -1, RuleStrict, "tool %q is strict but model %q does not support strict tools", t.Name, req.Model)
		}
		strictCount++
	}
	if strict.MaxTools > 0 && strictCount > strict.MaxTools {
		return nil, invalid(-1, -1, RuleStrict, "%d strict tools declared; model %q accepts at most %d", strictCount, req.Model, strict.MaxTools)
	}
	return d, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkSchema requires a tool's parameters to be a JSON object whose
// "type" is "object", as the Messages API does.
func checkSchema(t model.ToolDefinition) error {
	var root map[string]json.RawMessage
	if err := json.Unmarshal(t.Parameters, &root); err != nil || root == nil {
		return invalid(-1, -1, RuleSchema, "tool %q parameters are not a JSON object", t.Name)
	}
	if typ, ok := root["type"]; !ok || !bytes.Equal(bytes.TrimSpace(typ), []byte(`"object"`)) {
		return invalid(-1, -1, RuleSchema, `tool %q parameters do not have "type": "object" at the root`, t.Name)
	}
	return nil
}

// addNames declares every tool the mode renders in names.
func (d *declarations) addNames(names *nameMap, m mode) error {
	add := func(ts []model.ToolDefinition) error {
		for _, t := range ts {
			if err := names.add(t.Name); err != nil {
				return fmt.Errorf("%w (%w)", err, model.ErrInvalidRequest)
			}
		}
		return nil
	}
	if err := add(d.app); err != nil {
		return err
	}
	if d.discovery != nil {
		if err := add([]model.ToolDefinition{*d.discovery}); err != nil {
			return err
		}
	}
	if err := add(d.discovered); err != nil {
		return err
	}
	if m != modeEmulated {
		return add(d.deferred)
	}
	return nil
}

// render returns the tool declarations of the mode.
//
// Emulated: the application's tools, the discovery tool and the discovered
// tools, as ordinary tools in the request's order.
//
// Native: the application's tools, then the discovery tool (client search)
// or the hosted search tool, then every deferred tool with defer_loading:
// the permitted catalog in its order, a discovered tool replacing the
// catalog entry of its name (its snapshot is what the model was shown),
// and discovered tools outside the catalog after it. The declarations are
// the same on every step of a run whatever has been discovered.
//
// The cache breakpoint goes on the last non-deferred tool.
func (d *declarations) render(names *nameMap, m mode, hosted HostedSearch) ([]anthropic.BetaToolUnionParam, error) {
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
	if m == modeEmulated {
		for _, t := range d.discovered {
			out = append(out, toolParam(t, names, false))
		}
		if len(out) > 0 {
			setCacheBreakpoint(&out[len(out)-1])
		}
		return out, nil
	}
	eager := len(out)
	for _, t := range d.deferredTools() {
		out = append(out, toolParam(t, names, true))
	}
	if eager == 0 && len(out) > 0 {
		return nil, invalid(-1, -1, RuleEagerTool, "all %d tools would be deferred; native rendering keeps at least one tool non-deferred", len(out))
	}
	if eager > 0 {
		setCacheBreakpoint(&out[eager-1])
	}
	return out, nil
}

// deferredTools merges the permitted catalog and the discovered tools.
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
	return out
}

// toolParam renders one tool; its schema goes out byte for byte.
func toolParam(t model.ToolDefinition, names *nameMap, deferred bool) anthropic.BetaToolUnionParam {
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
