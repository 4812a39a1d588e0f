// Package registrytest is a tool registry in memory for the tests of the
// packages that consume one (the MCP gateway's registry upstreams, the
// gateway command's registry entries): it holds toolsets under the
// fingerprints and tokens the registry's client checks, runs their calls,
// and serves the list, resolve and call routes of the registry protocol
// over HTTP for registry.Client. The registry server itself is the
// registry/service module, which this module cannot import.
package registrytest
