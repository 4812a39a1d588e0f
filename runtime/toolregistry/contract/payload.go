package contract

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// payloadCodec is the model-facing payload codec of a compiled tool: it
// refuses payloads that carry a server-only field, then validates against
// the model schema and keeps the value as raw JSON.
type payloadCodec struct {
	raw        *tools.RawCodec
	serverOnly []string
}

func newPayloadCodec(schema *tools.Schema, serverOnly []string) tools.Codec {
	return &payloadCodec{raw: tools.NewRawCodec(schema), serverOnly: slices.Clone(serverOnly)}
}

// Schema returns the model schema.
func (c *payloadCodec) Schema() *tools.Schema { return c.raw.Schema() }

// Decode refuses server-only fields, validates data and returns it as a
// json.RawMessage.
func (c *payloadCodec) Decode(data []byte) (any, error) {
	if err := c.refuseServerOnly(data); err != nil {
		return nil, err
	}
	return c.raw.Decode(data)
}

// Encode encodes v, refuses server-only fields and validates the result.
func (c *payloadCodec) Encode(v any) ([]byte, error) {
	data, err := c.raw.Encode(v)
	if err != nil {
		return nil, err
	}
	if err := c.refuseServerOnly(data); err != nil {
		return nil, err
	}
	return data, nil
}

func (c *payloadCodec) refuseServerOnly(data []byte) error {
	if len(c.serverOnly) == 0 {
		return nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		// Not an object: schema validation reports it precisely.
		return nil
	}
	for _, f := range c.serverOnly {
		if _, ok := top[f]; ok {
			return fmt.Errorf("%w: property %q is filled by the server and may not be sent", tools.ErrPayloadInvalid, f)
		}
	}
	return nil
}
