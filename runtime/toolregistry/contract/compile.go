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

// cloneContract returns a deep copy so that a spec never aliases the record
// it was compiled from.
func cloneContract(c *tools.Contract) *tools.Contract {
	if c == nil {
		return nil
	}
	out := *c
	out.SearchTerms = append([]string(nil), c.SearchTerms...)
	out.Fields = append([]tools.FieldMeta(nil), c.Fields...)
	out.ServerOnlyFields = append([]string(nil), c.ServerOnlyFields...)
	if c.RequiredLabels != nil {
		out.RequiredLabels = make(map[string]string, len(c.RequiredLabels))
		for k, v := range c.RequiredLabels {
			out.RequiredLabels[k] = v
		}
	}
	if c.Confirmation != nil {
		conf := *c.Confirmation
		out.Confirmation = &conf
	}
	return &out
}
