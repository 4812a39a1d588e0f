package gateway

// Registry toolsets: an upstream whose tools a tool registry holds. Its
// list is the toolset's current registration (or every toolset's, for a
// whole registry), read through the runtime's registry client
// (runtime.RegistryClient, as an agent's registry source reads it), and
// its calls go through that client under the registration token the tool
// was listed under. The catalog, search, sessions and
// policy treat it as any other upstream.

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/registry"
	"github.com/goa-discovery/goa-discovery/runtime/registry/runtimeclient"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// gatewayRunID is the run ID of the gateway's registry calls: the
// registry keys a call by run, step and call ID, and every call of the
// gateway has a call ID of its own.
const gatewayRunID = "mcp-gateway"

// readRegistry reads the toolset's current registration, or every
// toolset the registry holds; fail records a failure. The caller holds
// u.mu.
func (u *upstream) readRegistry(ctx context.Context, fail func(error) bool) bool {
	if u.cfg.AllToolsets {
		return u.readWholeRegistry(ctx, fail)
	}
	ts, err := u.resolve(ctx)
	if err != nil {
		return fail(err)
	}
	if ts.Token == u.token {
		return u.unchanged()
	}
	list := make([]upstreamTool, len(ts.Schema.Tools))
	for i, rec := range ts.Schema.Tools {
		list[i] = upstreamTool{mcpName: rec.Name.Tool(), rec: rec, token: ts.Token}
	}
	u.apply(ts.Token, list)
	return true
}

// readWholeRegistry reads every toolset of the registry, in the order the
// registry lists them. Its tools are known by their identifiers
// ("toolset.tool"), each called under its own toolset's token; the list
// changed when a toolset's token did, or a toolset came or went.
func (u *upstream) readWholeRegistry(ctx context.Context, fail func(error) bool) bool {
	sets, err := u.cfg.Registry.ListToolsets(ctx)
	if err != nil {
		return fail(fmt.Errorf("list registry %q: %w", u.cfg.Name, err))
	}
	var key strings.Builder
	var list []upstreamTool
	for _, ts := range sets {
		fmt.Fprintf(&key, "%d:%s%s;", len(ts.Schema.Name), ts.Schema.Name, ts.Token)
		for _, rec := range ts.Schema.Tools {
			list = append(list, upstreamTool{mcpName: string(rec.Name), rec: rec, token: ts.Token})
		}
	}
	if key.String() == u.token && u.listed {
		return u.unchanged()
	}
	u.listed = true
	u.apply(key.String(), list)
	return true
}

// resolve reads the toolset through the registry client, having the
// registry check a pinned version when the client can, and checks that
// the answer is the toolset asked for, at that version.
func (u *upstream) resolve(ctx context.Context) (*runtime.ResolvedToolset, error) {
	var ts *runtime.ResolvedToolset
	var err error
	if pinned, ok := u.cfg.Registry.(runtime.PinnedVersionResolver); ok && u.cfg.Version != "" {
		ts, err = pinned.ResolveToolsetVersion(ctx, u.cfg.Name, u.cfg.Version)
	} else {
		ts, err = u.cfg.Registry.ResolveToolset(ctx, u.cfg.Name)
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("resolve registry toolset %q: %w", u.cfg.Name, err)
	case ts == nil:
		return nil, fmt.Errorf("resolve registry toolset %q: the registry answered with no toolset", u.cfg.Name)
	case ts.Schema.Name != u.cfg.Name:
		return nil, fmt.Errorf("resolve registry toolset %q: the registry answered with toolset %q", u.cfg.Name, ts.Schema.Name)
	case u.cfg.Version != "" && ts.Schema.Version != u.cfg.Version:
		return nil, fmt.Errorf("%w: registry toolset %q is at version %q, not %q", errVersion, u.cfg.Name, ts.Schema.Version, u.cfg.Version)
	}
	return ts, nil
}

// errVersion is matched by the read error of a registry toolset at a
// version other than the one pinned; the model is told.
var errVersion = errors.New("version mismatch")

// callRegistry forwards a validated call of a registry tool. A tool that
// ran and failed answers with its message; a call the registry refused or
// could not run names the toolset and the tool, without the registry's
// address; a result that breaks the tool's result schema is an error.
func (u *upstream) callRegistry(ctx context.Context, e *entry, args json.RawMessage) *sdk.CallToolResult {
	raw, err := u.cfg.Registry.CallTool(ctx, &runtime.RegistryCall{
		RunID:     gatewayRunID,
		CallID:    rand.Text(),
		Tool:      e.rec.Name,
		Token:     e.token,
		Arguments: args,
	})
	head := fmt.Sprintf("registry toolset %q tool %q", u.cfg.Name, e.mcpName)
	if u.cfg.AllToolsets {
		head = fmt.Sprintf("registry %q tool %q", u.cfg.Name, e.mcpName)
	}
	switch {
	case errors.Is(err, runtimeclient.ErrToolFailed):
		return errorResult(head + " reported an error: " + mcp.Redact(err.Error()))
	case errors.Is(err, registry.ErrUnreachable):
		u.log.Warn("mcp gateway: registry call failed", "toolset", u.cfg.Name, "tool", e.mcpName, "error", err)
		return errorResult(head + ": the registry cannot be reached; try again")
	case errors.Is(err, registry.ErrBadResponse):
		u.log.Warn("mcp gateway: registry call failed", "toolset", u.cfg.Name, "tool", e.mcpName, "error", err)
		return errorResult(head + ": the registry answered outside its protocol")
	case err != nil:
		// A refusal of the registry (a token no longer current, a call
		// not admitted) in its own words.
		return errorResult(head + ": " + mcp.Redact(err.Error()))
	}
	// The result is checked against the tool's result schema, as the
	// runtime checks a registry tool's result for an agent.
	if spec, err := e.spec(); err == nil && spec.Result != nil {
		if _, err := spec.Result.Decode(raw); err != nil {
			return errorResult(head + ": the result breaks the tool's result schema: " + err.Error())
		}
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(raw)}}}
	if len(e.rec.Result) > 0 {
		res.StructuredContent = raw
	}
	return res
}

// registryText is what the model reads of a registry upstream that could
// not be read.
func registryText(err error, version string) string {
	switch {
	case errors.Is(err, registry.ErrToolsetNotFound):
		return "the registry holds no such toolset; the next search tries again"
	case errors.Is(err, registry.ErrVersionMismatch), errors.Is(err, errVersion):
		return fmt.Sprintf("the registry does not hold the toolset at version %q; the next search tries again", version)
	}
	return "the registry cannot be read; the next search tries again"
}
