package runtime

// A catalog is everything an agent could use in one planning step: its local
// tools and the tools of its registry sources, before run policy. Catalogs
// are immutable once built and shared between the runs and steps that see
// the same version: the local part is built once per registration
// generation, a registry part once per set of registrations read. Nothing
// here is per run; policy is applied on use (see runPolicy).

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// catalogTool is one tool of a catalog.
type catalogTool struct {
	id       tools.Ident
	name     string // model-facing
	deferred bool
	schema   *tools.ToolSchema
	source   ToolSource
	snapshot model.ToolSnapshot
	// local is the executing toolset of a local tool; registry the client of
	// a registry tool.
	local    *toolset
	registry RegistryClient
	partner  *tools.ToolSchema // the pagination partner, when it has one

	validatorOnce sync.Once
	validator     *tools.Schema
	validatorErr  error
}

// definition returns the tool as an immediate declaration.
func (t *catalogTool) definition() model.ToolDefinition {
	d := t.snapshot.Definition()
	d.Kind = model.ToolApplication
	return d
}

// catalog is an immutable step catalog.
type catalog struct {
	version   string
	immediate []*catalogTool
	deferred  []*catalogTool
	byName    map[string]*catalogTool
	byIdent   map[tools.Ident]*catalogTool

	prebuilt  *toolsearch.Index // generated index of the deferred tools, if any
	indexOnce sync.Once
	index     *toolsearch.Index
	indexErr  error
}

func newCatalog(version string, capacity int) *catalog {
	return &catalog{
		version: version,
		byName:  make(map[string]*catalogTool, capacity),
		byIdent: make(map[tools.Ident]*catalogTool, capacity),
	}
}

// add adds t, refusing a second tool with its identity or model name.
func (c *catalog) add(t *catalogTool) error {
	if prev, dup := c.byIdent[t.id]; dup {
		return fmt.Errorf("%w: tool %q comes from %s and %s", ErrCatalog, t.id, prev.source, t.source)
	}
	if prev, dup := c.byName[t.name]; dup {
		return fmt.Errorf("%w: tools %q and %q share the model-facing name %q", ErrCatalog, prev.id, t.id, t.name)
	}
	c.byIdent[t.id] = t
	c.byName[t.name] = t
	if t.deferred {
		c.deferred = append(c.deferred, t)
	} else {
		c.immediate = append(c.immediate, t)
	}
	return nil
}

// searchIndex returns the index of the deferred tools, built on first use.
func (c *catalog) searchIndex() (*toolsearch.Index, error) {
	c.indexOnce.Do(func() {
		if c.prebuilt != nil {
			c.index = c.prebuilt
			return
		}
		docs := make([]toolsearch.Document, len(c.deferred))
		for i, t := range c.deferred {
			docs[i] = toolsearch.Document{
				Name:        string(t.id),
				Alias:       t.name,
				Title:       t.schema.Title,
				Description: t.schema.Description,
				Parameters:  t.snapshot.Parameters,
			}
			if t.schema.Contract != nil {
				docs[i].SearchTerms = t.schema.Contract.SearchTerms
			}
		}
		c.index, c.indexErr = toolsearch.NewIndexFromDocuments(docs)
		if c.indexErr != nil {
			c.indexErr = fmt.Errorf("%w: search index: %w", ErrCatalog, c.indexErr)
		}
	})
	return c.index, c.indexErr
}

// ModelName returns the name the model calls a tool by: the tool's Ident
// with its dot replaced by '_' ("records.lookup" becomes "records_lookup"),
// which every provider accepts.
func ModelName(id tools.Ident) string {
	return id.Toolset() + "_" + id.Tool()
}

// newCatalogTool builds the catalog entry of one tool schema.
func newCatalogTool(schema *tools.ToolSchema, deferred bool, src ToolSource) (*catalogTool, error) {
	params, err := modelParameters(schema)
	if err != nil {
		return nil, fmt.Errorf("%w: tool %q: %w", ErrCatalog, schema.Name, err)
	}
	t := &catalogTool{
		id:       schema.Name,
		name:     ModelName(schema.Name),
		deferred: deferred,
		schema:   schema,
		source:   src,
		snapshot: model.ToolSnapshot{
			Name:        ModelName(schema.Name),
			Description: schema.Description,
			Parameters:  params,
			Namespace:   schema.Name.Toolset(),
		},
	}
	return t, nil
}

// modelParameters returns the payload schema the model sees: the schema
// verbatim, or without the contract's server-only properties.
func modelParameters(schema *tools.ToolSchema) (json.RawMessage, error) {
	if schema.Contract == nil || len(schema.Contract.ServerOnlyFields) == 0 {
		return schema.Payload, nil
	}
	var root map[string]any
	if err := json.Unmarshal(schema.Payload, &root); err != nil {
		return nil, fmt.Errorf("payload schema: %w", err)
	}
	props, _ := root["properties"].(map[string]any)
	hidden := make(map[string]bool, len(schema.Contract.ServerOnlyFields))
	for _, f := range schema.Contract.ServerOnlyFields {
		if _, ok := props[f]; !ok {
			return nil, fmt.Errorf("server-only field %q is not a payload property", f)
		}
		hidden[f] = true
		delete(props, f)
	}
	if req, ok := root["required"].([]any); ok {
		kept := req[:0]
		for _, r := range req {
			if s, ok := r.(string); !ok || !hidden[s] {
				kept = append(kept, r)
			}
		}
		root["required"] = kept
	}
	out, err := json.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("payload schema: %w", err)
	}
	return out, nil
}

// localCatalog returns the agent's local catalog, building it when the
// registrations changed since it was last built.
func (rt *Runtime) localCatalog(a *agent) (*catalog, error) {
	rt.mu.RLock()
	gen := rt.generation
	rt.mu.RUnlock()
	version := "local@" + strconv.FormatUint(gen, 10)
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
			if agentName, ok := ts.agents[id]; ok {
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

// checkPrebuiltIndex checks that a generated index holds exactly the
// deferred tools.
func checkPrebuiltIndex(ix *toolsearch.Index, deferred []*catalogTool) error {
	if ix.Len() != len(deferred) {
		return fmt.Errorf("deferred index holds %d tools, the agent defers %d", ix.Len(), len(deferred))
	}
	names := make([]string, len(deferred))
	for i, t := range deferred {
		names[i] = string(t.id)
	}
	if _, err := ix.Lookup(names...); err != nil {
		return fmt.Errorf("deferred index: %w", err)
	}
	return nil
}

// tool returns the schema of one of the toolset's tools, or nil.
func (ts *toolset) tool(id tools.Ident) *tools.ToolSchema { return ts.byIdent[id] }

// merge returns a catalog holding base's tools and then part's.
func merge(base, part *catalog) (*catalog, error) {
	c := newCatalog(base.version+"+"+part.version, len(base.byIdent)+len(part.byIdent))
	for _, list := range [][]*catalogTool{base.immediate, base.deferred, part.immediate, part.deferred} {
		for _, t := range list {
			if err := c.add(t); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// catalogCache keeps recently built catalogs by version.
type catalogCache struct {
	mu    sync.Mutex
	order []string
	byKey map[string]*catalog
}

// catalogCacheSize bounds the catalogs a runtime keeps.
const catalogCacheSize = 32

func (cc *catalogCache) get(key string) *catalog {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return cc.byKey[key]
}

func (cc *catalogCache) put(key string, c *catalog) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.byKey == nil {
		cc.byKey = make(map[string]*catalog)
	}
	if _, ok := cc.byKey[key]; ok {
		return
	}
	if len(cc.order) == catalogCacheSize {
		delete(cc.byKey, cc.order[0])
		cc.order = cc.order[1:]
	}
	cc.order = append(cc.order, key)
	cc.byKey[key] = c
}

// versionKey joins version parts unambiguously.
func versionKey(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(strconv.Quote(p))
	}
	return b.String()
}
