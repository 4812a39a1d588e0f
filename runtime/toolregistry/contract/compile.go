package contract

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Compile validates the tool record and compiles its schemas. The returned
// spec's Payload codec validates what a model may send: the payload schema
// without the contract's server-only fields, refusing payloads that carry
// them. Its Result codec, present when the record has a result schema,
// validates results against that schema. The spec shares no memory with
// the record.
//
// Every error matches tools.ErrInvalidSchema and names the tool.
func Compile(ts *tools.ToolSchema) (*tools.ToolSpec, error) {
	if ts == nil {
		return nil, fmt.Errorf("%w: nil tool schema", tools.ErrInvalidSchema)
	}
	if err := ts.Validate(); err != nil {
		return nil, err
	}
	visible, err := ModelSchema(ts)
	if err != nil {
		return nil, err
	}
	payload, err := tools.CompileSchema(visible)
	if err != nil {
		return nil, fmt.Errorf("tool %q: payload: %w", ts.Name, err)
	}
	spec := &tools.ToolSpec{
		Name:        ts.Name,
		Description: ts.Description,
		Payload:     newPayloadCodec(payload, serverOnly(ts.Contract)),
		Contract:    cloneContract(ts.Contract),
	}
	if len(ts.Result) > 0 {
		result, err := tools.CompileSchema(ts.Result)
		if err != nil {
			return nil, fmt.Errorf("tool %q: result: %w", ts.Name, err)
		}
		spec.Result = tools.NewRawCodec(result)
	}
	return spec, nil
}

func serverOnly(c *tools.Contract) []string {
	if c == nil {
		return nil
	}
	return c.ServerOnlyFields
}
