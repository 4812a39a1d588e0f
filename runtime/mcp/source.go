package mcp

// Dynamic sources: a toolset whose tools are whatever the server lists at
// run time. A Source plugs into the runtime the way a registry does (it is
// a runtime.RegistryClient registered under the server's name), so the
// runtime reads it once per planning step, filters it by run policy,
// searches it and binds every admitted call to the list it was admitted
// under (the registration token is the list's fingerprint).
//
// A read returns the list read before unless it may be stale: a server that
// promised tools/list_changed notifications is read again after one (or
// after a reconnection), any other server at every read.

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Source is a dynamic MCP toolset. It is safe for concurrent use.
type Source struct {
	session *Session
	toolset string

	mu       sync.Mutex
	listings []*listing // most recent last, at most keptListings
}

// keptListings is how many lists a source keeps, so that a call admitted
// under a list that changed since can still be checked against it. The
// lists kept hold at most twice the session's MaxListBytes together (the
// latest one always stays).
const keptListings = 4

// listing is one read of the server's list.
type listing struct {
	sum      [sha256.Size]byte // of the list as the SDK decoded it
	bytes    int               // of the list as JSON
	state    listState
	catalog  *Catalog
	resolved runtime.ResolvedToolset
	byIdent  map[tools.Ident]*tools.ToolSchema

	specs *specCache
}

// specCache holds the compiled records of one list content, shared by the
// reads that listed it.
type specCache struct {
	mu sync.Mutex
	m  map[tools.Ident]*tools.ToolSpec
}

// NewSource returns the dynamic source of the server's tools as the
// toolset named toolset.
func NewSource(s *Session, toolset string) (*Source, error) {
	if err := tools.ValidateName(toolset); err != nil {
		return nil, fmt.Errorf("mcp server %q: toolset: %w", s.server, err)
	}
	return &Source{session: s, toolset: toolset}, nil
}

// RegisterSource registers the dynamic source of the server's tools, as
// the toolset named toolset, with rt under the server's name. An agent uses
// it through runtime.MCPToolset{Server: server, Toolset: toolset}.
func RegisterSource(rt *runtime.Runtime, s *Session, toolset string) (*Source, error) {
	src, err := NewSource(s, toolset)
	if err != nil {
		return nil, err
	}
	if err := rt.RegisterRegistry(s.server, src); err != nil {
		return nil, err
	}
	return src, nil
}

// MCPServer names the source's server: it makes the source a
// runtime.MCPSource, so that calls of its tools are recorded with
// runtime.SourceMCP.
func (src *Source) MCPServer() string { return src.session.server }

var _ runtime.MCPSource = (*Source)(nil)

// ResolveToolset returns the source's toolset; any other name is an error.
func (src *Source) ResolveToolset(ctx context.Context, toolset string) (*runtime.ResolvedToolset, error) {
	if toolset != src.toolset {
		return nil, fmt.Errorf("mcp server %q serves toolset %q, not %q", src.session.server, src.toolset, toolset)
	}
	l, err := src.read(ctx)
	if err != nil {
		return nil, err
	}
	r := l.resolved
	return &r, nil
}

// ListToolsets returns the source's one toolset.
func (src *Source) ListToolsets(ctx context.Context) ([]runtime.ResolvedToolset, error) {
	l, err := src.read(ctx)
	if err != nil {
		return nil, err
	}
	return []runtime.ResolvedToolset{l.resolved}, nil
}

// read returns the current list, reading it again when it may be stale.
func (src *Source) read(ctx context.Context) (*listing, error) {
	src.mu.Lock()
	var last *listing
	if n := len(src.listings); n > 0 {
		last = src.listings[n-1]
	}
	src.mu.Unlock()
	if last != nil && last.state.notifies && last.state.changes == src.session.changes.Load() {
		return last, nil
	}
	list, st, err := src.session.listTools(ctx)
	if err != nil {
		return nil, err
	}
	// A list the server sent before is not converted again: most reads of
	// a server that does not notify changes find the same list.
	wire, err := json.Marshal(list)
	if err != nil {
		return nil, fmt.Errorf("%w: mcp server %q: %w", ErrCatalog, src.session.server, err)
	}
	sum := sha256.Sum256(wire)
	if last != nil && last.sum == sum {
		same := *last
		same.state = st
		src.mu.Lock()
		defer src.mu.Unlock()
		if n := len(src.listings); n > 0 && src.listings[n-1] == last {
			src.listings[n-1] = &same
		}
		return &same, nil
	}
	cat, err := src.session.catalogOf(src.toolset, list)
	if err != nil {
		return nil, err
	}
	fp, err := contract.Fingerprint(&cat.Toolset)
	if err != nil {
		return nil, fmt.Errorf("%w: mcp server %q: %w", ErrCatalog, src.session.server, err)
	}
	l := &listing{
		sum:      sum,
		bytes:    len(wire),
		state:    st,
		catalog:  cat,
		resolved: runtime.ResolvedToolset{Schema: cat.Toolset, Fingerprint: fp, Token: string(fp)},
		byIdent:  make(map[tools.Ident]*tools.ToolSchema, len(cat.Toolset.Tools)),
		specs:    &specCache{m: make(map[tools.Ident]*tools.ToolSpec)},
	}
	for i := range cat.Toolset.Tools {
		l.byIdent[cat.Toolset.Tools[i].Name] = &cat.Toolset.Tools[i]
	}
	src.mu.Lock()
	defer src.mu.Unlock()
	if i := slices.IndexFunc(src.listings, func(o *listing) bool { return o.resolved.Token == l.resolved.Token }); i >= 0 {
		// The same list again: keep the compiled specs of the first read.
		l.specs = src.listings[i].specs
		src.listings = slices.Delete(src.listings, i, i+1)
	}
	src.listings = append(src.listings, l)
	held := 0
	for _, o := range src.listings {
		held += o.bytes
	}
	for len(src.listings) > keptListings || (len(src.listings) > 1 && held > 2*src.session.limits.MaxListBytes) {
		held -= src.listings[0].bytes
		src.listings[0] = nil
		src.listings = src.listings[1:]
	}
	return l, nil
}

// CallTool sends an admitted call under the tool's MCP name. The call is
// bound to the list it was admitted under (its token): when the server's
// list changed since, the call goes out only if the tool is still listed
// with the same record; a token of a list the source no longer keeps (or
// never read, as in a replay in another process) must be the server's
// current list. The arguments are validated against that record
// before anything is sent. A tool with an output schema answers with its
// structuredContent, validated against it; any other tool with its
// content's text (or, when a block is not text, its content blocks as
// JSON). Every failure is a *CallError the model reads.
func (src *Source) CallTool(ctx context.Context, call *runtime.RegistryCall) (json.RawMessage, error) {
	name := call.Tool.Tool()
	fail := func(detail string, cause error) error {
		return &CallError{Server: src.session.server, Tool: name, Kind: CallInvalid, Detail: detail, Cause: cause}
	}
	admitted, current := src.lists(call.Token)
	if admitted == nil {
		// Not a list this source read lately (a replay in another
		// process, a list long replaced): the call goes out only if the
		// server lists exactly that list now.
		if _, err := src.read(ctx); err != nil {
			return nil, &CallError{Server: src.session.server, Tool: name, Kind: CallUnreachable, Cause: err}
		}
		if admitted, current = src.lists(call.Token); admitted == nil {
			return nil, fail("the server's tool list changed since the call was admitted; search for the tool again", nil)
		}
	}
	rec := admitted.byIdent[call.Tool]
	if rec == nil {
		return nil, fail(fmt.Sprintf("the tool list the call was admitted under has no tool %q", call.Tool), nil)
	}
	if current != admitted {
		now := current.byIdent[call.Tool]
		if now == nil || !sameRecord(rec, now) {
			return nil, fail("the tool changed on the server since the call was admitted; search for it again", nil)
		}
	}
	mcpName, _ := admitted.catalog.MCPName(call.Tool)
	name = mcpName
	spec, err := admitted.spec(rec)
	if err != nil {
		return nil, fail(err.Error(), err)
	}
	if _, err := spec.Payload.Decode(call.Arguments); err != nil {
		return nil, fail("invalid arguments: "+err.Error(), err)
	}
	res, err := src.session.Call(ctx, mcpName, call.Arguments)
	if err != nil {
		return nil, err
	}
	if spec.Result == nil {
		text, err := content(res)
		if err != nil {
			return nil, fail(err.Error(), err)
		}
		return json.RawMessage(text), nil
	}
	raw, err := structured(res)
	switch {
	case err != nil:
		return nil, fail(err.Error(), err)
	case raw == nil:
		return nil, fail("the tool has an output schema and the server sent no structuredContent", nil)
	}
	if _, err := spec.Result.Decode(raw); err != nil {
		return nil, fail("structuredContent does not match the tool's output schema: "+err.Error(), err)
	}
	return raw, nil
}

// lists returns the listing of token and the latest one.
func (src *Source) lists(token string) (admitted, current *listing) {
	src.mu.Lock()
	defer src.mu.Unlock()
	if len(src.listings) == 0 {
		return nil, nil
	}
	current = src.listings[len(src.listings)-1]
	for _, l := range src.listings {
		if l.resolved.Token == token {
			admitted = l
		}
	}
	return admitted, current
}

// spec compiles a listed tool's record once per listing.
func (l *listing) spec(rec *tools.ToolSchema) (*tools.ToolSpec, error) {
	l.specs.mu.Lock()
	defer l.specs.mu.Unlock()
	if s := l.specs.m[rec.Name]; s != nil {
		return s, nil
	}
	s, err := contract.Compile(rec)
	if err != nil {
		return nil, err
	}
	l.specs.m[rec.Name] = s
	return s, nil
}

// sameRecord reports whether two reads listed a tool alike.
func sameRecord(a, b *tools.ToolSchema) bool {
	fa, errA := tools.SchemaFingerprint(string(a.Name), []tools.ToolSchema{*a})
	fb, errB := tools.SchemaFingerprint(string(b.Name), []tools.ToolSchema{*b})
	return errA == nil && errB == nil && fa == fb
}
