package runtime

// Per-step catalog resolution: the local part, then each registry source
// read once through its client. The result stays fixed for the step.

import (
	"context"
	"fmt"
	"maps"
	"slices"

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
	var resolved []resolvedSource
	var kb keyBuilder
	kb.add(local.version)
	for _, src := range sources {
		got, err := rt.readSource(ctx, src)
		if err != nil {
			return nil, fmt.Errorf("%w: agent %q: %w", ErrCatalog, a.reg.Name, err)
		}
		for _, r := range got {
			kb.add(src.Registry, r.toolset.Schema.Name, string(r.toolset.Fingerprint), r.toolset.Token)
			kb.flag(src.Deferred)
		}
		resolved = append(resolved, got...)
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

// readSource reads one source through its registry's client.
func (rt *Runtime) readSource(ctx context.Context, src RegistrySource) ([]resolvedSource, error) {
	client, ok := rt.registryNamed(src.Registry)
	if !ok {
		return nil, fmt.Errorf("registry %q is not registered", src.Registry)
	}
	if src.Toolset == "" {
		list, err := client.ListToolsets(ctx)
		if err != nil {
			return nil, fmt.Errorf("list registry %q: %w", src.Registry, err)
		}
		out := make([]resolvedSource, len(list))
		for i, ts := range list {
			out[i] = resolvedSource{src: src, client: client, toolset: ts, deferred: src.Deferred}
		}
		return out, nil
	}
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
	if ts == nil || ts.Schema.Name != src.Toolset {
		return nil, fmt.Errorf("resolve %s: registry answered with another toolset", src)
	}
	if src.Version != "" && ts.Schema.Version != src.Version {
		return nil, fmt.Errorf("resolve %s: current version is %q", src, ts.Schema.Version)
	}
	return []resolvedSource{{src: src, client: client, toolset: *ts, deferred: src.Deferred}}, nil
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
		if err := c.add(t); err != nil {
			return err
		}
	}
	return nil
}
