// Package catalogfile reads the files the search command works on: a tool
// catalog, either JSON lines, each line {"name", "title", "description",
// "parameters", "source"} or a tool's wire record (tools.ToolSchema, with
// "payload"), or one document that is an MCP tools/list result
// ({"tools": [{"name", "title", "description", "inputSchema", ...}]}) or a
// toolset's wire record (tools.ToolsetSchema); and a query set, JSON lines
// of {"query", "gold", "id"}. A wire record is searched as the runtime
// searches a deferred tool (WireDocument): by its identifier and the name
// the model knows it by.
//
// Reading is strict: malformed JSON, unknown fields, missing or empty names,
// repeated names and gold names that are not in the catalog are errors that
// give the line (or the tools[i] entry) at fault. Nothing is guessed.
package catalogfile
