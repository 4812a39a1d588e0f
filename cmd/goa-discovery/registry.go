package main

import (
	"fmt"
	"io"
)

// registryCommand is the package of the registry's own command, in the
// registry server's module: serving a registry needs Redis, Prometheus and
// OTLP, which a module that only generates, searches and imports MCP
// servers does not require.
const registryCommand = "github.com/goa-discovery/goa-discovery/registry/service/cmd/goa-discovery-registry"

// runRegistry says where "registry serve|ls|show|calls|withdraw" are: in
// the goa-discovery-registry command, with the same subcommands and flags.
// It exits 0 for -h and 2 otherwise, as any other usage message does.
func runRegistry(args []string, _, stderr io.Writer) int {
	fmt.Fprintf(stderr, "usage: goa-discovery-registry serve|ls|show|calls|withdraw [arguments]\n\n"+
		"The tool registry's commands are the goa-discovery-registry command of the registry\n"+
		"server's module (docs/registry.md), with the same subcommands and flags:\n"+
		"  go install %s@latest\n"+
		"or, in a clone of this repository:\n"+
		"  go run ./registry/service/cmd/goa-discovery-registry\n", registryCommand)
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		return 0
	}
	return 2
}
