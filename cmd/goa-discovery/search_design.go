package main

// The catalog of a design's agent for goa-discovery search --design: the
// tools that agent's search tool searches, read from the design by the
// generator program that gen builds (--agent-catalogs, codegen's
// AgentCatalogs), each tool given as its wire record and searched as the
// runtime searches a deferred tool (catalogfile.WireDocument). Registry
// sources and MCP toolsets whose tools their server lists are read at run
// time: they are named on stderr as not included.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/internal/strictjson"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// agentCatalog is one record of the generator program's --agent-catalogs
// output (codegen.AgentCatalog).
type agentCatalog struct {
	Agent     string             `json:"agent"`
	Service   string             `json:"service"`
	At        string             `json:"at"`
	Deferred  []tools.ToolSchema `json:"deferred"`
	Immediate []tools.Ident      `json:"immediate"`
	Sources   []catalogSource    `json:"sources"`
}

// catalogSource is a source of an agent's tools that only the run time
// knows (codegen.CatalogSource).
type catalogSource struct {
	Registry  string `json:"registry,omitempty"`
	MCPServer string `json:"mcp_server,omitempty"`
	Toolset   string `json:"toolset,omitempty"`
	Version   string `json:"version,omitempty"`
	Deferred  bool   `json:"deferred"`
}

// String names the source as the design declares it.
func (s catalogSource) String() string {
	switch {
	case s.MCPServer != "":
		return fmt.Sprintf("the tools MCP server %q lists (toolset %q)", s.MCPServer, s.Toolset)
	case s.Toolset == "":
		return fmt.Sprintf("registry %q (all its toolsets)", s.Registry)
	case s.Version != "":
		return fmt.Sprintf("toolset %q %s of registry %q", s.Toolset, s.Version, s.Registry)
	}
	return fmt.Sprintf("toolset %q of registry %q", s.Toolset, s.Registry)
}

// readDesignCatalog returns the search documents of the deferred tools of
// the design's agent named agent (the design's one agent when agent is
// ""), and says on stderr which agent it searches and which of its sources
// are not included. An interrupt stops the generator program's build or
// run and still removes the program, as it does for gen.
func readDesignCatalog(ctx context.Context, designPath, agent string, stderr io.Writer) ([]toolsearch.Document, string, error) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	all, err := agentCatalogs(ctx, designPath, stderr)
	if err != nil {
		return nil, "", err
	}
	return agentDocuments(all, designPath, agent, stderr)
}

// agentDocuments returns the search documents of the deferred tools of the
// agent named agent among the design's catalogs (see readDesignCatalog).
func agentDocuments(all []agentCatalog, designPath, agent string, stderr io.Writer) ([]toolsearch.Document, string, error) {
	c, err := chooseAgent(all, agent)
	if err != nil {
		return nil, "", fmt.Errorf("design %s: %w", designPath, err)
	}
	source := fmt.Sprintf("design %s, agent %q", designPath, c.Agent)
	fmt.Fprintf(stderr, "goa-discovery search: agent %q of service %q: %s searched; %s declared on every request, never searched\n",
		c.Agent, c.Service, tally(len(c.Deferred), "deferred tool"), tally(len(c.Immediate), "immediate tool"))
	for _, s := range c.Sources {
		if s.Deferred {
			fmt.Fprintf(stderr, "goa-discovery search: not included: %s, read at run time\n", s)
		}
	}
	if len(c.Deferred) == 0 {
		return nil, "", fmt.Errorf("%s: the design gives the agent no deferred tool to search", source)
	}
	docs := make([]toolsearch.Document, len(c.Deferred))
	for i := range c.Deferred {
		if docs[i], err = catalogfile.WireDocument(&c.Deferred[i]); err != nil {
			return nil, "", fmt.Errorf("%s: %w", source, err)
		}
	}
	return docs, source, nil
}

// agentCatalogs runs the design's generator program with --agent-catalogs
// and decodes what it writes. Design errors are the program's, printed as
// gen prints them.
func agentCatalogs(ctx context.Context, designPath string, stderr io.Writer) ([]agentCatalog, error) {
	out, err := readDesignView(ctx, designPath, agentCatalogsView, stderr)
	if err != nil {
		return nil, err
	}
	var all []agentCatalog
	if err := strictjson.Decode(bytes.TrimSpace(out), &all); err != nil {
		return nil, fmt.Errorf("read the design's agent catalogs: %w", err)
	}
	return all, nil
}

// chooseAgent returns the catalog of the agent named name, or of the one
// agent when name is "". With several agents and no name it is an error
// that lists them: each agent's search tool sees its own catalog, and
// pooling them would rank tools that no agent searches together.
func chooseAgent(all []agentCatalog, name string) (agentCatalog, error) {
	list := make([]string, len(all))
	for i, c := range all {
		list[i] = fmt.Sprintf("%s (%s)", c.Agent, tally(len(c.Deferred), "deferred tool"))
	}
	switch {
	case len(all) == 0:
		return agentCatalog{}, errors.New("the design declares no agent, so no search tool")
	case name == "" && len(all) == 1:
		return all[0], nil
	case name == "":
		return agentCatalog{}, fmt.Errorf("the design declares %d agents: %s; name one with --agent", len(all), strings.Join(list, ", "))
	}
	for _, c := range all {
		if c.Agent == name {
			return c, nil
		}
	}
	return agentCatalog{}, fmt.Errorf("the design declares no agent %q; its agents are %s", name, strings.Join(list, ", "))
}

// tally says n of a noun: "1 deferred tool", "2 deferred tools".
func tally(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
