package openaiwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// RuleToolSchema: a declared tool's parameters are one JSON object.
const RuleToolSchema model.Rule = "provider_tool_schema"

// Parameters decodes a tool's JSON Schema into the map the SDK sends.
// Numbers stay json.Number, so their text reaches the wire unchanged; keys
// are sent in sorted order, which makes the rendering the same for the same
// schema on every request. An empty schema is an empty object schema only
// when it is absent (nil); anything but one JSON object is an error naming
// the tool.
func Parameters(tool string, raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	err := dec.Decode(&m)
	if err == nil && dec.More() {
		err = errors.New("data after the JSON value")
	}
	if err == nil && m == nil {
		err = errors.New("schema is null")
	}
	if err != nil {
		return nil, &model.ValidationError{Message: -1, Part: -1, Rule: RuleToolSchema,
			Detail: fmt.Sprintf("tool %q: parameters are not one JSON object: %v", tool, err)}
	}
	return m, nil
}
