// Package gonames derives the Go names that generated code gives design
// names: the package (and directory) of a toolset, agent or registry, and
// the exported identifiers of tools, types and fields. Code generation names
// its output with it and design validation rejects, with it, two
// declarations that would get one name, so both always agree.
package gonames
