package codegen

// This file derives the Go names of generated code from design names: the
// package (and directory) of a toolset, agent or registry and the exported
// identifiers of tools and types, with package gonames, which validation
// uses to reject two declarations of one name. Names that collide are
// reported, never renamed behind the user's back.

import "github.com/goa-discovery/goa-discovery/internal/gonames"

// Import paths of the packages that generated code and the generator use,
// declared once.
const (
	toolsPkg      = "github.com/goa-discovery/goa-discovery/runtime/tools"
	toolsearchPkg = "github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	runtimePkg    = "github.com/goa-discovery/goa-discovery/runtime"
	mcpPkg        = "github.com/goa-discovery/goa-discovery/runtime/mcp"
	registryPkg   = "github.com/goa-discovery/goa-discovery/runtime/registry"
	contextPkg    = "context"
	jsonPkg       = "encoding/json"
	fmtPkg        = "fmt"
	syncPkg       = "sync"
)

// packageName returns the Go package name, also the directory name, of a
// design name (see gonames.Package).
func packageName(name, kind string) string { return gonames.Package(name, kind) }

// goName returns the exported Go identifier of a design name (see
// gonames.Exported).
func goName(name string) string { return gonames.Exported(name) }

// lowerGoName returns the unexported Go identifier of a design name.
func lowerGoName(name string) string { return gonames.Unexported(name) }
