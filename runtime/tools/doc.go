// Package tools defines what a tool is at run time: its identifier, its
// specification with JSON Schema kept as raw JSON, validating JSON codecs,
// and ToolSchema / ToolsetSchema, the one wire record of a tool and of a
// toolset shared by generated code, the registry, its clients and the
// contract compiler.
//
// Schemas are JSON Schema 2020-12 (or the draft a schema declares), compiled
// once with github.com/santhosh-tekuri/jsonschema/v6 and self-contained: a
// reference to another document is an error, never a file or network read,
// and a count keyword (minLength, maxItems, ...) larger than 2^53-1 is an
// error naming its JSON Pointer, never a bound the validator wraps.
// Payloads with duplicate object keys are rejected before validation, and
// a TypedCodec decodes only keys spelled exactly as its type's JSON names,
// so the value decoded is always the value validated. A decoded value whose
// type implements Defaulter then takes the defaults its design states for
// the optional properties the JSON value omitted.
//
// The wire records decode exactly: a key that is not one of the record's
// JSON names, spelled exactly, or a key given twice is an error.
//
// Fingerprints are SHA-256 digests over canonical JSON (see Canonicalize):
// SchemaFingerprint covers a registration name and its tool schemas, and
// ToolsetFingerprint covers a whole toolset record except its registration
// time.
package tools
