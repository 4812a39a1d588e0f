package runtime

// Per-step catalog resolution: the local part, then each registry source
// read once through its client. The result stays fixed for the step.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// resolvedSource is a registry toolset read for one step.
type resolvedSource struct {
	src      RegistrySource
	client   RegistryClient
	toolset  ResolvedToolset
	deferred bool
}

// stepCatalog resolves the agent's catalog for one planning step.
func (rt *Runtime) stepCatalog(ctx context.Context, a *agent, labels map[string]string) (*catalog, error) {
	local, err := rt.localCatalog(a)
	if err != nil {
		return nil, err
	}
	sources := a.reg.Registries
	if a.registryTools != nil {
		rc := &RegistryCatalog{labels: maps.Clone(labels)}
		if err := a.registryTools.Resolve(ctx, rc); err != nil {
			return nil, fmt.Errorf("%w: agent %q: registry tools: %w", ErrCatalog, a.reg.Name, err)
		}
		sources = append(slices.Clone(sources), rc.sources...)
	}
	if len(sources) == 0 {
		return local, nil
	}
	resolved, err := rt.readSources(ctx, sources)
	if err != nil {
		return nil, fmt.Errorf("%w: agent %q: %w", ErrCatalog, a.reg.Name, err)
	}
	var kb keyBuilder
	kb.add(local.version)
	for _, r := range resolved {
		kb.add(r.src.Registry, r.toolset.Schema.Name, string(r.toolset.Fingerprint), r.toolset.Token)
		kb.flag(r.deferred)
	}
	key := kb.String()
	if c := rt.registryParts.get(key); c != nil {
		return c, nil
	}
	part := newCatalog(key, 0)
	for _, r := range resolved {
		if err := addRegistryToolset(part, r); err != nil {
			return nil, fmt.Errorf("agent %q: %w", a.reg.Name, err)
		}
	}
	c, err := merge(local, part)
	if err != nil {
		return nil, fmt.Errorf("agent %q: %w", a.reg.Name, err)
	}
	c.version = key
	rt.registryParts.put(key, c)
	return c, nil
}

// readSources reads the step's sources, one registry at a time, and
// returns what they hold in the order of sources.
func (rt *Runtime) readSources(ctx context.Context, sources []RegistrySource) ([]resolvedSource, error) {
	got := make([][]resolvedSource, len(sources))
	done := make([]bool, len(sources))
	for i, src := range sources {
		if done[i] {
			continue
		}
		var idx []int
		for j := i; j < len(sources); j++ {
			if sources[j].Registry == src.Registry {
				idx, done[j] = append(idx, j), true
			}
		}
		rctx, obs := rt.observer().startRegistryRead(ctx, sources, idx)
		err := rt.readRegistry(rctx, sources, idx, got)
		obs.endRegistryRead(sources, idx, got, err)
		if err != nil {
			return nil, err
		}
	}
	var out []resolvedSource
	for _, g := range got {
		out = append(out, g...)
	}
	return out, nil
}

// readRegistry reads the sources at idx, all of one registry, into got. A
// whole registry is listed once however often it is named, and named
// toolsets of a listed registry are taken from that list; otherwise they are
// resolved in one read when the client is a ToolsetsResolver, or one by one.
// Reads that report different generations fail with *RegistryChangedError:
// a toolset read first may be gone by the time the next read answers.
func (rt *Runtime) readRegistry(ctx context.Context, sources []RegistrySource, idx []int, got [][]resolvedSource) error {
	name := sources[idx[0]].Registry
	client, ok := rt.registryNamed(name)
	if !ok {
		return fmt.Errorf("registry %q is not registered", name)
	}
	var named []int
	var whole []ResolvedToolset
	listed := false
	for _, i := range idx {
		src := sources[i]
		if src.Toolset != "" {
			named = append(named, i)
			continue
		}
		if !listed {
			list, err := client.ListToolsets(ctx)
			if err != nil {
				return fmt.Errorf("list registry %q: %w", name, err)
			}
			whole, listed = list, true
		}
		got[i] = make([]resolvedSource, len(whole))
		for k, ts := range whole {
			got[i][k] = resolvedSource{src: src, client: client, toolset: ts, deferred: src.Deferred}
		}
	}
	switch batch, ok := client.(ToolsetsResolver); {
	case listed:
		if err := fromList(whole, client, sources, named, got); err != nil {
			return err
		}
	case ok && len(named) > 0:
		if err := resolveBatch(ctx, batch, client, sources, named, got); err != nil {
			return err
		}
	default:
		for _, i := range named {
			ts, err := resolveOne(ctx, client, sources[i])
			if err != nil {
				return err
			}
			got[i] = []resolvedSource{{src: sources[i], client: client, toolset: *ts, deferred: sources[i].Deferred}}
		}
	}
	var first uint64
	for _, i := range idx {
		for _, r := range got[i] {
			switch g := r.toolset.Generation; {
			case g == 0:
			case first == 0:
				first = g
			case g != first:
				return &RegistryChangedError{Registry: name, First: first, Then: g}
			}
		}
	}
	return nil
}

// resolveBatch resolves the named sources at idx in one read. A toolset
// named by several sources is read once; sources naming it must agree on
// its version.
func resolveBatch(ctx context.Context, batch ToolsetsResolver, client RegistryClient, sources []RegistrySource, idx []int, got [][]resolvedSource) error {
	refs := make([]ToolsetRef, 0, len(idx))
	at := make(map[string]int, len(idx))
	for _, i := range idx {
		src := sources[i]
		k, seen := at[src.Toolset]
		if !seen {
			at[src.Toolset] = len(refs)
			refs = append(refs, ToolsetRef{Name: src.Toolset, Version: src.Version})
			continue
		}
		if refs[k].Version != src.Version {
			return fmt.Errorf("registry %q: toolset %q is pinned to version %q and to version %q", src.Registry, src.Toolset, refs[k].Version, src.Version)
		}
	}
	list, err := batch.ResolveToolsets(ctx, refs)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", sourceNames(sources, idx), err)
	}
	if len(list) != len(refs) {
		return fmt.Errorf("resolve %s: registry answered %d toolsets for %d", sourceNames(sources, idx), len(list), len(refs))
	}
	for _, i := range idx {
		src := sources[i]
		ts := list[at[src.Toolset]]
		if err := checkResolved(src, &ts); err != nil {
			return err
		}
		got[i] = []resolvedSource{{src: src, client: client, toolset: ts, deferred: src.Deferred}}
	}
	return nil
}

// fromList takes the named sources at idx from a whole-registry list read in
// the same step.
func fromList(list []ResolvedToolset, client RegistryClient, sources []RegistrySource, idx []int, got [][]resolvedSource) error {
	for _, i := range idx {
		src := sources[i]
		k := slices.IndexFunc(list, func(ts ResolvedToolset) bool { return ts.Schema.Name == src.Toolset })
		if k < 0 {
			return fmt.Errorf("resolve %s: toolset %q not found in the registry's list", src, src.Toolset)
		}
		if err := checkResolved(src, &list[k]); err != nil {
			return err
		}
		got[i] = []resolvedSource{{src: src, client: client, toolset: list[k], deferred: src.Deferred}}
	}
	return nil
}

// resolveOne reads one named source.
func resolveOne(ctx context.Context, client RegistryClient, src RegistrySource) (*ResolvedToolset, error) {
	var ts *ResolvedToolset
	var err error
	if pinned, ok := client.(PinnedVersionResolver); ok && src.Version != "" {
		ts, err = pinned.ResolveToolsetVersion(ctx, src.Toolset, src.Version)
	} else {
		ts, err = client.ResolveToolset(ctx, src.Toolset)
	}
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", src, err)
	}
	if ts == nil {
		return nil, fmt.Errorf("resolve %s: registry answered with no toolset", src)
	}
	return ts, checkResolved(src, ts)
}

// checkResolved checks that ts is the toolset src names, at its pinned
// version.
func checkResolved(src RegistrySource, ts *ResolvedToolset) error {
	if ts.Schema.Name != src.Toolset {
		return fmt.Errorf("resolve %s: registry answered with toolset %q", src, ts.Schema.Name)
	}
	if src.Version != "" && ts.Schema.Version != src.Version {
		return fmt.Errorf("resolve %s: current version is %q", src, ts.Schema.Version)
	}
	return nil
}

// sourceNames lists the sources at idx for an error message.
func sourceNames(sources []RegistrySource, idx []int) string {
	names := make([]string, len(idx))
	for k, i := range idx {
		names[k] = sources[i].String()
	}
	return strings.Join(names, ", ")
}

// addRegistryToolset adds the tools of one resolved toolset to c.
func addRegistryToolset(c *catalog, r resolvedSource) error {
	schema := cloneToolsetSchema(r.toolset.Schema)
	if err := tools.ValidateName(schema.Name); err != nil {
		return fmt.Errorf("%w: registry %q: %w", ErrCatalog, r.src.Registry, err)
	}
	byIdent := make(map[tools.Ident]*tools.ToolSchema, len(schema.Tools))
	for i := range schema.Tools {
		byIdent[schema.Tools[i].Name] = &schema.Tools[i]
	}
	for i := range schema.Tools {
		ts := &schema.Tools[i]
		if err := ts.Name.Validate(); err != nil {
			return fmt.Errorf("%w: registry %q toolset %q: %w", ErrCatalog, r.src.Registry, schema.Name, err)
		}
		if ts.Name.Toolset() != schema.Name {
			return fmt.Errorf("%w: registry %q toolset %q serves tool %q of another toolset", ErrCatalog, r.src.Registry, schema.Name, ts.Name)
		}
		src := ToolSource{
			Kind:        SourceRegistry,
			Registry:    r.src.Registry,
			Toolset:     schema.Name,
			Version:     schema.Version,
			Fingerprint: r.toolset.Fingerprint,
			Token:       r.toolset.Token,
		}
		if m, ok := r.client.(MCPSource); ok {
			src.Kind, src.Server = SourceMCP, m.MCPServer()
		}
		t, err := newCatalogTool(ts, r.deferred, src)
		if err != nil {
			return err
		}
		t.registry = r.client
		if ts.Contract != nil && ts.Contract.PaginationPartner != "" {
			t.partner = byIdent[ts.Contract.PaginationPartner]
			if t.partner == nil {
				return fmt.Errorf("%w: registry %q: tool %q names pagination partner %q, which its toolset does not have", ErrCatalog, r.src.Registry, ts.Name, ts.Contract.PaginationPartner)
			}
		}
		if err := c.addOrDrop(t); err != nil {
			return err
		}
	}
	return nil
}

// localCatalog returns the agent's local catalog, building it when the
// registrations changed since it was last built.
func (rt *Runtime) localCatalog(a *agent) (*catalog, error) {
	rt.mu.RLock()
	gen := rt.generation
	rt.mu.RUnlock()
	version := versionKey("local", a.reg.Name, strconv.FormatUint(gen, 10))
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.local != nil && a.local.version == version {
		return a.local, nil
	}
	c := newCatalog(version, len(a.reg.Immediate)+len(a.reg.Deferred))
	for _, list := range [][]tools.Ident{a.reg.Immediate, a.reg.Deferred} {
		for _, id := range list {
			ts, ok := rt.toolsetOf(id)
			if !ok {
				return nil, fmt.Errorf("%w: agent %q uses toolset %q, which is not registered", ErrCatalog, a.reg.Name, id.Toolset())
			}
			schema := ts.tool(id)
			if schema == nil {
				return nil, fmt.Errorf("%w: agent %q uses tool %q, which toolset %q does not have", ErrCatalog, a.reg.Name, id, id.Toolset())
			}
			src := ToolSource{Kind: SourceLocal, Toolset: ts.schema.Name, Version: ts.schema.Version}
			if ts.mcpServer != "" {
				src.Kind, src.Server = SourceMCP, ts.mcpServer
			}
			if agentName, ok := ts.agents[id]; ok {
				// An agent tool's agent must be there before the first step,
				// like a toolset, not when the model first calls it.
				if _, err := rt.agentNamed(agentName); err != nil {
					return nil, fmt.Errorf("%w: agent %q uses agent tool %q of agent %q, which is not registered (%w)", ErrCatalog, a.reg.Name, id, agentName, ErrUnknownAgent)
				}
				src.Kind, src.Agent = SourceAgent, agentName
			}
			t, err := newCatalogTool(schema, a.deferredSet[id], src)
			if err != nil {
				return nil, err
			}
			t.local = ts
			if err := c.add(t); err != nil {
				return nil, err
			}
		}
	}
	if ix := a.reg.DeferredIndex; ix != nil {
		if err := checkPrebuiltIndex(ix, c.deferred); err != nil {
			return nil, fmt.Errorf("%w: agent %q: %w", ErrCatalog, a.reg.Name, err)
		}
		c.prebuilt = ix
	}
	a.local = c
	return c, nil
}
