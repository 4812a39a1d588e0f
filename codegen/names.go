package codegen

// This file derives the Go names of generated code from design names: the
// package (and directory) of a toolset, agent or registry and the exported
// identifiers of tools and types. Names that collide are reported, never
// renamed behind the user's back.

import (
	"go/token"
	"strings"

	goacodegen "goa.design/goa/v3/codegen"
)

// Import paths of the packages that generated code and the generator use,
// declared once.
const (
	toolsPkg      = "github.com/goa-discovery/goa-discovery/runtime/tools"
	toolsearchPkg = "github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	runtimePkg    = "github.com/goa-discovery/goa-discovery/runtime"
	contextPkg    = "context"
	jsonPkg       = "encoding/json"
	fmtPkg        = "fmt"
	syncPkg       = "sync"
)

// reservedPackageNames are the names a generated package cannot take because
// its files import packages of that name.
var reservedPackageNames = map[string]bool{
	"tools": true, "toolsearch": true, "runtime": true, "context": true,
	"json": true, "fmt": true, "sync": true, "main": true,
}

// packageName returns the Go package name, also the directory name, of a
// design name: its ASCII letters and digits, lower-cased. A name that would
// be empty or start with a digit gets the prefix kind ("_1st" becomes
// "registry1st"); one that would be a Go keyword or shadow an import gets it
// as a suffix ("map" becomes "maptoolset").
func packageName(name, kind string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			b.WriteByte(c)
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		}
	}
	pkg := b.String()
	switch {
	case pkg == "" || pkg[0] >= '0' && pkg[0] <= '9':
		return kind + pkg
	case token.IsKeyword(pkg) || reservedPackageNames[pkg]:
		return pkg + kind
	}
	return pkg
}

// goName returns the exported Go identifier of a design name, the way Goa
// names it ("lookup_record" becomes "LookupRecord", "id" becomes "ID"). A
// name whose letters all follow a digit ("_9") gets a leading "X".
func goName(name string) string { return leadingLetter(goacodegen.Goify(name, true), "X") }

// lowerGoName returns the unexported Go identifier of a design name.
func lowerGoName(name string) string { return leadingLetter(goacodegen.Goify(name, false), "x") }

// leadingLetter prefixes id with prefix when id starts with a digit.
func leadingLetter(id, prefix string) string {
	if id != "" && id[0] >= '0' && id[0] <= '9' {
		return prefix + id
	}
	return id
}
