package main

// Reading a design without generating: the commands that need what a design
// declares (search --design, mcp diff) run the same generator program as gen,
// in a mode that writes one view of the design as JSON on stdout instead of
// generating, and decode it themselves.

import (
	"bytes"
	"context"
	"errors"
	"io"
)

// designView is a flag of the generator program (see generatorMain) that
// makes it write one view of the design as JSON instead of generating.
type designView string

const (
	// agentCatalogsView writes the catalogs of the agents' search tools
	// (codegen.WriteAgentCatalogs).
	agentCatalogsView designView = "--agent-catalogs"
	// mcpToolsetsView writes the declared MCP toolsets
	// (codegen.WriteDeclaredMCPToolsets).
	mcpToolsetsView designView = "--mcp-toolsets"
)

// readDesignView resolves the design package at designPath, writes, builds
// and runs its generator program with view, and returns what the program
// wrote on stdout. The program is removed in every case, also when ctx ends
// the build or the run early. Design errors and build progress go to stderr
// as gen prints them, and the error is then errDesign.
func readDesignView(ctx context.Context, designPath string, view designView, stderr io.Writer) (_ []byte, err error) {
	d, err := resolveDesign(ctx, designPath)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	g := &generatorRun{design: d, args: []string{string(view)}, stdout: &out, stderr: stderr}
	defer func() { err = errors.Join(err, g.remove()) }()
	if err := g.write(); err != nil {
		return nil, err
	}
	if err := g.build(ctx); err != nil {
		return nil, err
	}
	if err := g.run(ctx); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
