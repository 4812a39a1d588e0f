package runtime

// A catalog is everything an agent could use in one planning step: its local
// tools and the tools of its registry sources, before run policy. Catalogs
// are immutable once built and shared between the runs and steps that see
// the same version: the local part is built once per registration
// generation, a registry part once per set of registrations read. Nothing
// here is per run; policy is applied on use (see runPolicy).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
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
	entry    discovery.Entry   // the tool as discovery answers with it
	compiled compiledContract  // see payloadSpec
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

	// dropped are the MCP tools left out because their model-facing name
	// is another source's tool's: one server's listing never takes the
	// agent's other tools down. Each step records them (step.resolve).
	dropped []droppedTool

	// labelKeys are the run labels some tool's contract requires; only
	// their values make two runs' permitted catalogs differ.
	labelKeys map[string]bool

	prebuilt  *toolsearch.Index // generated index of the deferred tools, if any
	indexOnce sync.Once
	index     *toolsearch.Index
	indexErr  error

	// full is the discovery catalog of every deferred tool, built with the
	// index on first use; run policies derive theirs from it.
	fullOnce sync.Once
	full     *discovery.Catalog
	fullErr  error

	// excludedByKey maps a policy key to the deferred tools it leaves out;
	// permitted maps such a set to the discovery catalog of the others.
	permittedMu   sync.Mutex
	excludedByKey map[string]string
	permitted     map[string]*discovery.Catalog
}

func newCatalog(version string, capacity int) *catalog {
	return &catalog{
		version:   version,
		byName:    make(map[string]*catalogTool, capacity),
		byIdent:   make(map[tools.Ident]*catalogTool, capacity),
		labelKeys: make(map[string]bool),
	}
}

// droppedTool is an MCP tool a catalog leaves out, and why.
type droppedTool struct {
	source ToolSource
	id     tools.Ident
	reason string
}

// addOrDrop adds t as add does, except that an MCP tool whose model-facing
// name another source's tool already has is left out and recorded in
// c.dropped, naming its server and tool, rather than failing the catalog.
func (c *catalog) addOrDrop(t *catalogTool) error {
	if prev, dup := c.byName[t.name]; dup && t.source.Kind == SourceMCP && prev.id != t.id {
		c.dropped = append(c.dropped, droppedTool{
			source: t.source,
			id:     t.id,
			reason: fmt.Sprintf("its model-facing name %q is that of tool %q from %s", t.name, prev.id, prev.source),
		})
		return nil
	}
	return c.add(t)
}

// add adds t, refusing a second tool with its identity or model name.
func (c *catalog) add(t *catalogTool) error {
	if prev, dup := c.byIdent[t.id]; dup {
		return fmt.Errorf("%w: tool %q comes from %s and %s", ErrCatalog, t.id, prev.source, t.source)
	}
	if prev, dup := c.byName[t.name]; dup {
		return fmt.Errorf("%w: tools %q (%s) and %q (%s) share the model-facing name %q", ErrCatalog, prev.id, prev.source, t.id, t.source, t.name)
	}
	c.byIdent[t.id] = t
	c.byName[t.name] = t
	if t.schema.Contract != nil {
		for k := range t.schema.Contract.RequiredLabels {
			c.labelKeys[k] = true
		}
	}
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

// fullCatalog returns the discovery catalog of every deferred tool, built
// on first use over the search index. Checking the deferred tools' entries
// happens here, once per step catalog, whatever the policies of the runs
// that use it.
func (c *catalog) fullCatalog() (*discovery.Catalog, error) {
	c.fullOnce.Do(func() {
		ix, err := c.searchIndex()
		if err != nil {
			c.fullErr = err
			return
		}
		entries := make([]discovery.Entry, len(c.deferred))
		for i, t := range c.deferred {
			entries[i] = t.entry
		}
		c.full, c.fullErr = discovery.NewCatalog(entries, ix)
		if c.fullErr != nil {
			c.fullErr = fmt.Errorf("%w: deferred catalog: %w", ErrCatalog, c.fullErr)
		}
	})
	return c.full, c.fullErr
}

// newCatalogTool builds the catalog entry of one tool schema. The model
// knows the tool by the snapshot discovery makes of it.
func newCatalogTool(schema *tools.ToolSchema, deferred bool, src ToolSource) (*catalogTool, error) {
	entry, err := discovery.EntryFromSchema(schema)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCatalog, err)
	}
	// Discovery catalogs answer with compact parameters; the declaration
	// and the admission check use the same bytes.
	var buf bytes.Buffer
	if err := json.Compact(&buf, entry.Snapshot.Parameters); err != nil {
		return nil, fmt.Errorf("%w: tool %q: %w", ErrCatalog, schema.Name, err)
	}
	entry.Snapshot.Parameters = buf.Bytes()
	return &catalogTool{
		id:       schema.Name,
		name:     entry.Snapshot.Name,
		deferred: deferred,
		schema:   schema,
		source:   src,
		snapshot: entry.Snapshot,
		entry:    entry,
	}, nil
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
	c.dropped = append(slices.Clone(base.dropped), part.dropped...)
	for _, list := range [][]*catalogTool{base.immediate, base.deferred, part.immediate, part.deferred} {
		for _, t := range list {
			if err := c.addOrDrop(t); err != nil {
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
	bytes map[string]int // the schema bytes of each catalog kept
	held  int            // their sum
}

// catalogCacheSize bounds the catalogs a runtime keeps.
const catalogCacheSize = 32

// catalogCacheBytes bounds the schema bytes (descriptions, payload and
// result schemas of every tool) of the catalogs a runtime keeps; the
// latest catalog stays whatever its size. A registry or MCP server whose
// list changes at every read then holds a few catalogs, not
// catalogCacheSize of them.
const catalogCacheBytes = 16 << 20

// schemaBytes returns the bytes of c's tool records that catalogCacheBytes
// counts.
func (c *catalog) schemaBytes() int {
	n := 0
	for _, t := range c.byIdent {
		n += len(t.schema.Description) + len(t.schema.Payload) + len(t.schema.Result)
	}
	return n
}

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
		cc.bytes = make(map[string]int)
	}
	if _, ok := cc.byKey[key]; ok {
		return
	}
	n := c.schemaBytes()
	for len(cc.order) > 0 && (len(cc.order) == catalogCacheSize || cc.held+n > catalogCacheBytes) {
		old := cc.order[0]
		cc.held -= cc.bytes[old]
		delete(cc.byKey, old)
		delete(cc.bytes, old)
		cc.order = cc.order[1:]
	}
	cc.order = append(cc.order, key)
	cc.byKey[key] = c
	cc.bytes[key] = n
	cc.held += n
}

// versionKey joins version parts unambiguously.
func versionKey(parts ...string) string {
	var kb keyBuilder
	kb.add(parts...)
	return kb.String()
}

// keyBuilder joins parts unambiguously: each is written with its length.
type keyBuilder struct {
	buf []byte
}

func (k *keyBuilder) add(parts ...string) {
	for _, p := range parts {
		k.buf = strconv.AppendInt(k.buf, int64(len(p)), 10)
		k.buf = append(k.buf, ':')
		k.buf = append(k.buf, p...)
	}
}

func (k *keyBuilder) flag(v bool) {
	if v {
		k.buf = append(k.buf, '+')
	} else {
		k.buf = append(k.buf, '-')
	}
}

// String returns the key.
func (k *keyBuilder) String() string { return string(k.buf) }

// The permitted catalog answers a discovery call: the deferred tools the
// run may use. It is built on the first discovery call that needs it and
// shared by every run and step that may use the same tools of the same
// catalog, so steps without a discovery call never pay for it. Every
// permitted catalog is a subset of one catalog of all the deferred tools,
// checked and indexed once per step catalog. A returned tool brings its
// pagination partner (discovery.Catalog.Answer) from the same permitted
// catalog: a partner the run may not use, or the agent does not defer, is
// never loaded, and a call to it is refused.

// permittedCacheSize bounds the permitted catalogs one catalog keeps.
const permittedCacheSize = 64

// permittedFor returns the discovery catalog of the deferred tools p
// permits. Runs whose policies leave out the same tools share one: the set
// left out is worked out once per policy key, and a discovery catalog is
// built once per distinct set.
func (c *catalog) permittedFor(p *runPolicy) (*discovery.Catalog, error) {
	key := p.key(c.labelKeys)
	c.permittedMu.Lock()
	defer c.permittedMu.Unlock()
	set, ok := c.excludedByKey[key]
	if !ok {
		var kb keyBuilder
		for i, t := range c.deferred {
			if !p.permits(t) {
				kb.add(strconv.Itoa(i))
			}
		}
		set = kb.String()
		if c.excludedByKey == nil || len(c.excludedByKey) == permittedCacheSize {
			c.excludedByKey = make(map[string]string)
		}
		c.excludedByKey[key] = set
	}
	if dc, ok := c.permitted[set]; ok {
		return dc, nil
	}
	full, err := c.fullCatalog()
	if err != nil {
		return nil, err
	}
	dc := full
	if set != "" {
		// Subset keeps the full catalog's order, its index and its
		// checked entries: nothing is checked or indexed again.
		dc = full.Subset(func(i int) bool { return p.permits(c.deferred[i]) })
	}
	if c.permitted == nil || len(c.permitted) == permittedCacheSize {
		c.permitted = make(map[string]*discovery.Catalog)
	}
	c.permitted[set] = dc
	return dc, nil
}
