package model

// Strict decoding of stored conversations. A history is reloaded from
// storage or received from another process, so it decodes exactly or not at
// all: encoding/json alone drops unknown keys, binds a key to a field whatever
// its case ("Text" fills "text") and lets a repeated key overwrite the first,
// each of which would silently change what was recorded. The module's one
// strict decoder, internal/strictjson, refuses all three.

import "github.com/goa-discovery/goa-discovery/internal/strictjson"

// decodeStrict decodes one JSON value into v. Every object key on the way
// must be a JSON name of its struct, spelled exactly and given once, and no
// data may follow the value.
func decodeStrict(data []byte, v any) error {
	return strictjson.Decode(data, v)
}
