// Package gatewaytest serves the registry of this module behind the MCP
// gateway (runtime/mcp/gateway) and drives the gateway with the go-sdk
// MCP client: the registry server, a provider endpoint running the calls,
// the gateway's registry upstream reading the registry over HTTP, and a
// client session that searches, lists and calls, all in process on
// loopback. Its tests hold the registry's and the gateway's rules
// together: what a search finds, what a session lists, where a call runs,
// what a denied tool and a withdrawn toolset look like to the model.
package gatewaytest
