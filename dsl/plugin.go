package dsl

// Importing the DSL registers the goa-discovery generators with Goa, so that
// "goa gen" on a design that uses this DSL also generates its toolset, agent
// and registry packages. It also puts the generators in the design's import
// graph, so that "go mod tidy" on the design's module records every module
// that the generator program of "goa-discovery gen" builds with.

import (
	goacodegen "goa.design/goa/v3/codegen"

	"github.com/goa-discovery/goa-discovery/codegen"
)

func init() {
	goacodegen.RegisterPlugin(codegen.PluginName, codegen.PluginCommand, nil, codegen.GoaPlugin)
}
