package gonames

import (
	"go/token"
	"strings"

	goacodegen "goa.design/goa/v3/codegen"
)

// Kinds of generated packages, given to Package.
const (
	KindRegistry = "registry"
	KindToolset  = "toolset"
	KindAgent    = "agent"
	KindGateway  = "gateway"
)

// reservedPackages are the names a generated package cannot take because
// its files import packages of that name (runtime/tools, runtime/toolsearch,
// runtime, context, encoding/json, fmt, sync), and main.
var reservedPackages = map[string]bool{
	"tools": true, "toolsearch": true, "runtime": true, "context": true,
	"json": true, "fmt": true, "sync": true, "main": true,
}

// MCPServerPackage returns the Go package name, also the directory name,
// of the MCP server of Goa service service.
func MCPServerPackage(service string) string { return Package(service, "service") + "mcp" }

// GatewayEndpointsField returns the field of an MCP gateway's Servers
// that holds the Goa endpoints of service service.
func GatewayEndpointsField(service string) string { return Exported(service) + "Endpoints" }

// GatewayTransportField returns the field of an MCP gateway's Servers that
// reaches the external MCP server server.
func GatewayTransportField(server string) string { return Exported(server) + "Transport" }

// GatewayRegistryField returns the field of an MCP gateway's Servers that
// holds the client of registry registry.
func GatewayRegistryField(registry string) string { return Exported(registry) + "Registry" }

// IsReservedPackage reports whether pkg is a name Package never returns
// because generated files import a package of that name.
func IsReservedPackage(pkg string) bool { return reservedPackages[pkg] }

// Package returns the Go package name, also the directory name, of a
// design name: its ASCII letters and digits, lower-cased. A name that would
// be empty or start with a digit gets the prefix kind ("_1st" becomes
// "registry1st"); one that would be a Go keyword or shadow an import gets it
// as a suffix ("map" becomes "maptoolset").
func Package(name, kind string) string {
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
	case token.IsKeyword(pkg) || reservedPackages[pkg]:
		return pkg + kind
	}
	return pkg
}

// Exported returns the exported Go identifier of a design name, the way Goa
// names it ("lookup_record" becomes "LookupRecord", "id" becomes "ID"). A
// name whose letters all follow a digit ("_9") gets a leading "X".
func Exported(name string) string { return leadingLetter(goacodegen.Goify(name, true), "X") }

// Unexported returns the unexported Go identifier of a design name.
func Unexported(name string) string { return leadingLetter(goacodegen.Goify(name, false), "x") }

// leadingLetter prefixes id with prefix when id starts with a digit.
func leadingLetter(id, prefix string) string {
	if id != "" && id[0] >= '0' && id[0] <= '9' {
		return prefix + id
	}
	return id
}
