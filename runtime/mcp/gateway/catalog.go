package gateway

// The catalog: the tools of every upstream read so far, under their
// model-facing names, with the one search index over them. A catalog is
// built whole and never changed; a list that changes builds a new one.

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// catalog is the tools the gateway serves now.
type catalog struct {
	byName map[string]*entry // by model-facing name
	byID   map[string]*entry // by the index's name (the tool's Ident)
	index  *toolsearch.Index // nil when no tool is served
	// problems are the upstreams that could not be read and the tools
	// refused, in the upstreams' order: every search answers with them.
	problems []Problem
}

// Problem is a server that could not be read or a tool of it the gateway
// refuses; a search's answer lists them.
type Problem struct {
	// Server is the upstream's name.
	Server string `json:"server"`
	// Tool is the server's name of the tool refused; empty for a server
	// that could not be read.
	Tool string `json:"tool,omitempty"`
	// Error says what happened.
	Error string `json:"error"`
}

// entry is one served tool.
type entry struct {
	name    string // model-facing: "<server>_<tool>"
	up      *upstream
	mcpName string
	rec     tools.ToolSchema
	token   string    // a registry tool's registration token
	tool    *sdk.Tool // what a client lists
	spec    func() (*tools.ToolSpec, error)
}

// build makes the catalog of the upstreams' current states.
func (g *Gateway) build() *catalog {
	cat := &catalog{byName: make(map[string]*entry), byID: make(map[string]*entry)}
	var names discovery.ModelNames
	var docs []toolsearch.Document
	for _, u := range g.upstreams {
		served, missing, err := u.state()
		if err != nil {
			cat.problems = append(cat.problems, Problem{Server: u.cfg.Name, Error: u.modelText(err)})
		}
		for _, m := range missing {
			cat.problems = append(cat.problems, Problem{Server: u.cfg.Name, Tool: m, Error: "the configuration names this tool and the server does not list it"})
		}
		for _, t := range served {
			if err := discovery.CheckModelName(t.rec.Name); err != nil {
				cat.problems = append(cat.problems, Problem{Server: u.cfg.Name, Tool: t.mcpName, Error: err.Error()})
				continue
			}
			if first, ok := names.Add(t.rec.Name); !ok {
				cat.problems = append(cat.problems, Problem{Server: u.cfg.Name, Tool: t.mcpName,
					Error: discovery.SharedModelNameError(t.rec.Name, first, "").Error()})
				continue
			}
			e, err := newEntry(u, t)
			if err != nil {
				cat.problems = append(cat.problems, Problem{Server: u.cfg.Name, Tool: t.mcpName, Error: err.Error()})
				continue
			}
			cat.byName[e.name] = e
			cat.byID[string(t.rec.Name)] = e
			docs = append(docs, toolsearch.Document{
				Name:        string(t.rec.Name),
				Alias:       e.name,
				Title:       t.rec.Title,
				Description: t.rec.Description,
				Parameters:  t.rec.Payload,
			})
		}
	}
	if len(docs) > 0 {
		ix, err := toolsearch.NewIndexFromDocuments(docs)
		if err != nil {
			// The records passed the runtime's checks; an index that
			// refuses them leaves search empty, and says why.
			cat.problems = append(cat.problems, Problem{Error: "the search index refused the catalog: " + err.Error()})
		}
		cat.index = ix
	}
	return cat
}

// newEntry makes the served tool of an upstream's record.
func newEntry(u *upstream, t upstreamTool) (*entry, error) {
	e := &entry{name: discovery.ModelName(t.rec.Name), up: u, mcpName: t.mcpName, rec: t.rec, token: t.token}
	if err := objectSchema(t.rec.Payload); err != nil {
		return nil, err
	}
	e.tool = &sdk.Tool{
		Name:        e.name,
		Title:       t.rec.Title,
		Description: t.rec.Description,
		InputSchema: t.rec.Payload,
	}
	if len(t.rec.Result) > 0 {
		e.tool.OutputSchema = t.rec.Result
	}
	e.spec = sync.OnceValues(func() (*tools.ToolSpec, error) { return contract.Compile(&e.rec) })
	return e, nil
}

// objectSchema refuses an input schema that is not an object's: MCP
// requires one, and a client could not be given the tool.
func objectSchema(raw []byte) error {
	var s struct {
		Type any `json:"type"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("inputSchema: %w", err)
	}
	if s.Type != "object" {
		return fmt.Errorf("inputSchema has type %v, want \"object\"", s.Type)
	}
	return nil
}
