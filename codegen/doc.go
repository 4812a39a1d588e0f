// Package codegen turns an evaluated goa-discovery design into Go packages.
//
// Generate is the single entry point that the program built by
// "goa-discovery gen" calls after eval.RunDSL has executed, validated and
// finalized the design. The generators of toolset, agent and registry
// packages are not part of this package yet: today Generate checks its
// inputs and writes nothing.
package codegen
