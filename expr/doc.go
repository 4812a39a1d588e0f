// Package expr holds the expressions that the goa-discovery DSL builds: tool
// registries, toolsets and their tools, and the agents that use and export
// toolsets, with the deferred selections of each use.
//
// Root is registered with Goa's eval engine and runs after Goa's own root, so
// that agents declared inside a Goa Service and Goa user types used as tool
// arguments exist before this package's DSL runs. Validation collects every
// error of a design at once and reports each one against the design file and
// line that caused it; Finalize resolves what code generation reads (the
// exporting agent of each toolset, the deferred tools of each use).
package expr
