// Package codegen turns an evaluated goa-discovery design into Go packages.
//
// Generate is the entry point that the program built by "goa-discovery gen"
// calls after eval.RunDSL has executed, validated and finalized the design;
// GoaPlugin is the same generation as a plugin of Goa's "goa gen" (the dsl
// package registers it), which adds the same files to Goa's output set.
// Both build a small intermediate representation from the roots (sorted by
// name, every reference resolved, schemas, search counts and fingerprints
// computed), then emit one package per local toolset, agent and registry
// with github.com/dave/jennifer, one function per emitted construct:
//
//	toolsets/<toolset>/   identifiers, wire records, JSON Schemas, Go types,
//	                      validating specs, search counts, Register, and
//	                      RegistryExecutor (the typed Executor as a
//	                      registry provider, dispatched by tool name)
//	agents/<agent>/       Definition, Register<Agent>Agent, NewClient,
//	                      tool identifiers, registry sources, search index
//	registries/<registry>/ name, URL and the sources agents declare
//
// A type that holds a design default at any depth gets a SetDefaults method
// (tools.Defaulter), which its TypedCodec calls after validation, so an
// omitted optional property reaches the executor with its default.
//
// Every package has its package comment in a doc.go of its own. Output is
// deterministic and gofmt'd; every file starts with Header, and Generate
// replaces only files that do, rewrites only files whose content changed,
// and reports each file (Report prints the changes).
package codegen
