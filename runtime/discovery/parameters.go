package discovery

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ErrInvalidParameters is matched by every error of CheckParameters.
var ErrInvalidParameters = errors.New("discovery: invalid tool parameters")

// CheckParameters reports why raw cannot be the parameters of a declared
// tool, or nil. Parameters must be plain JSON Schema: one JSON object without
// duplicate keys that compiles as a self-contained schema (draft 2020-12
// unless it names another draft; no reference to another document), with
// "type": "object" at its root.
func CheckParameters(raw json.RawMessage) error {
	if err := checkParametersShape(raw); err != nil {
		return err
	}
	if _, err := tools.CompileSchema(raw); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidParameters, err)
	}
	return nil
}

// checkParametersShape is CheckParameters without compiling the schema: one
// JSON object without duplicate keys and with "type": "object" at its root.
func checkParametersShape(raw json.RawMessage) error {
	_, err := compactParameters(nil, raw)
	return err
}
