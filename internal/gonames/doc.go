// Package gonames derives the Go names that generated code gives design
// names: the package (and directory) of a toolset, agent, registry or MCP
// server, the exported identifiers of tools, types and fields, the
// identifiers every toolset package declares, and the structs a toolset
// package declares for tool arguments and results (Declarer). Code
// generation names its output with it and design validation rejects, with
// it, two declarations that would get one name, so both always agree.
package gonames
