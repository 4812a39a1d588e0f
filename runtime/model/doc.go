// Package model is the provider-neutral conversation: messages and their
// parts (text, tool calls, discovery calls, tool results, discovery results),
// tool definitions and tool snapshots, requests, responses, finish reasons,
// usage, streaming events, the model Client interface, per-model
// capabilities and the errors shared by every provider adapter.
//
// Everything here is plain data. A history encodes to JSON and decodes back
// to an equal value, so it can be stored, reloaded and continued on another
// provider. Provider-specific records (native tool-search blocks, reasoning
// items) travel verbatim in the Meta maps of messages and parts, keyed by
// provider, and are never interpreted here.
//
// Package model checks the structure of each message (Message.Validate);
// the rules that span a history and the declarations of a request belong to
// package discovery.
package model
