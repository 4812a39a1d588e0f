// Package strictjson decodes JSON that arrives from outside the process
// (requests, stored records, files, provider records) exactly or not at all.
//
// encoding/json alone binds an object key to a struct field whatever its
// case ("Tool" fills the field named "tool"), lets the last of two equal keys
// win, drops unknown keys unless asked, and accepts invalid UTF-8 by
// replacing it. Each of those lets a document say one thing to a checker that
// reads it one way and another thing to the code that acts on it. Decode
// refuses all of them: every key of an object decoded into a struct must be
// one of that struct's JSON names spelled exactly, no object anywhere in the
// document may give a key twice, the text must be valid UTF-8, and nothing
// may follow the value.
//
// Values of types that decode themselves (json.Unmarshaler,
// encoding.TextUnmarshaler) are left to their own method, which for a
// record is expected to call Decode in turn; their keys are still checked
// for duplicates. Map keys are data, not field names,
// and are compared exactly, so "a" and "A" are two keys of a map.
//
// It is the one strict decoder of the module: the registry's protocol and
// store, stored runs, catalog files, tool records, typed tool payloads
// (tools.TypedCodec) and provider records all decode through it.
package strictjson
