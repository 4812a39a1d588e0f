// Package catalogfile reads the files the search command works on: a tool
// catalog, either JSON lines of {"name", "title", "description",
// "parameters", "source"} or an MCP tools/list result
// ({"tools": [{"name", "title", "description", "inputSchema", ...}]}), and a
// query set, JSON lines of {"query", "gold", "id"}.
//
// Reading is strict: malformed JSON, unknown fields, missing or empty names,
// repeated names and gold names that are not in the catalog are errors that
// give the line (or the tools[i] entry) at fault. Nothing is guessed.
package catalogfile
