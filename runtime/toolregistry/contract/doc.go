// Package contract turns tool records that arrive at run time (from a
// registry, or authored by the application instead of generated) into the
// same executable form that generated code emits.
//
// Compile validates a tools.ToolSchema and returns a tools.ToolSpec whose
// codecs validate payloads and results against the record's JSON Schemas.
// The payload codec speaks the model's side of the contract: server-only
// fields are removed from the schema the model sees (ModelSchema) and are
// refused when a payload carries them. Fingerprint fingerprints a toolset
// record, runtime-authored or a generated Toolset() value, with the one
// algorithm of package tools. Confirm renders a tool's confirmation template
// for a call, masking the fields the contract marks sensitive.
package contract
