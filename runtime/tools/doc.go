// Package tools defines what a tool is at run time: its identifier, its
// specification with JSON Schema kept as raw JSON, validating JSON codecs,
// and ToolSchema / ToolsetSchema, the one wire record of a tool and of a
// toolset shared by generated code, the registry, its clients and the
// contract compiler.
//
// Fingerprints are SHA-256 digests over canonical JSON (see Canonicalize):
// SchemaFingerprint covers a registration name and its tool schemas, and
// ToolsetFingerprint covers a whole toolset record except its registration
// time.
package tools
