// Package mcpimport writes the Go design file that declares an MCP server's
// tools (goa-discovery mcp import): from each tool's inputSchema and
// outputSchema, the Args and Return of a Tool of a FromExternalMCP toolset,
// so that the toolset gen writes from the file registers against the same
// server with no edit (the declared schemas equal the server's in
// runtime/mcp's canonical comparison).
//
// Schemas are outside input. Decode reads one into the attributes the DSL
// can declare (objects, arrays, maps, primitives, enums, formats, ranges,
// lengths, patterns, required properties, defaults, descriptions,
// examples), reduces alternatives to what it can declare (alternatives.go:
// "X or null", single branches, constant branches, a narrower argument),
// and reports every part it cannot declare as a *Problem at its tool and
// JSON Pointer, every one at once; with Options.Any the property that
// holds such a part is declared Any instead (an AnyProperty), which
// runtime/mcp's comparison reads as "whatever the server states here", and
// with Options.Partial its tool is left out. What gen or the runtime
// refuses later is refused here first (refuse.go). Annotations the DSL has
// no word for (title, $comment, deprecated, readOnly, writeOnly) never
// change which values a schema accepts; they are not written, and each is
// returned as a Note. Nested objects become Goa types named after the
// toolset and their path (FilesEditFileArgsEditsItem: the items of
// property "edits" of the arguments of tool "edit_file" of toolset
// "files"), the names gen gives their Go structs, so that imports never
// collide in one design package. A reference ("$ref": "#/$defs/address")
// to an object definition of the schema is the Goa type named after the
// toolset and the definition (FilesAddress), declared
// once for every reference and every schema that defines it alike, which
// gen writes under $defs again where a schema uses it more than once; a
// reference to any other definition is declared in place (defs.go). A
// recursive reference, a reference to another document, and a keyword
// beside $ref other than a description, a default or examples are
// Problems at their JSON Pointers.
package mcpimport
