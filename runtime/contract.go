package runtime

// The executable contract of a catalog tool. A local tool whose model
// schema is its payload schema decodes with the codecs its registration
// gave; every other tool (a registry tool, a local tool with server-only
// fields) decodes with the spec that contract.Compile makes of its record:
// its payload codec validates what the model may send and refuses the
// fields the server fills. Compiling a schema costs far more than a step,
// so a tool is compiled the first time a call needs it, once for every run
// that shares its catalog.

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// compiledContract is a tool record compiled on first use.
type compiledContract struct {
	once sync.Once
	spec *tools.ToolSpec
	err  error
}

// payloadSpec returns the spec that decodes the tool's calls.
func (t *catalogTool) payloadSpec() (*tools.ToolSpec, error) {
	if t.local != nil && !hasServerOnly(t.schema.Contract) {
		return t.local.specs[t.id], nil
	}
	t.compiled.once.Do(func() {
		t.compiled.spec, t.compiled.err = contract.Compile(t.schema)
		if t.compiled.err != nil {
			t.compiled.err = fmt.Errorf("%w: %s tool %q: contract: %w", ErrCatalog, t.source, t.id, t.compiled.err)
		}
	})
	return t.compiled.spec, t.compiled.err
}

func hasServerOnly(c *tools.Contract) bool { return c != nil && len(c.ServerOnlyFields) > 0 }

// errInvalidResult is wrapped when a tool's result breaks its schema.
var errInvalidResult = errors.New("invalid result")

// checkResult validates a registry tool's JSON result with the result codec
// of its compiled contract, when its record has a result schema.
func checkResult(t *catalogTool, raw json.RawMessage) error {
	spec, err := t.payloadSpec()
	if err != nil {
		return err
	}
	if spec.Result == nil {
		return nil
	}
	if _, err := spec.Result.Decode(raw); err != nil {
		return fmt.Errorf("%w: %w", errInvalidResult, err)
	}
	return nil
}

// encodeResult encodes a tool's result for the model.
func encodeResult(spec *tools.ToolSpec, v any) (string, error) {
	if spec.Result != nil {
		b, err := spec.Result.Encode(v)
		if err != nil {
			return "", fmt.Errorf("%w: %w", errInvalidResult, err)
		}
		return string(b), nil
	}
	switch v := v.(type) {
	case string:
		return v, nil
	case json.RawMessage:
		if !json.Valid(v) {
			return "", fmt.Errorf("%w: not valid JSON", errInvalidResult)
		}
		return string(v), nil
	case nil:
		return "", nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("%w: %w", errInvalidResult, err)
	}
	return string(b), nil
}

// errorResult answers a call with an error the model reads.
func errorResult(call model.ToolCall, text string) model.ToolResult {
	return model.ToolResult{CallID: call.ID, Name: call.Name, Content: text, IsError: true}
}
