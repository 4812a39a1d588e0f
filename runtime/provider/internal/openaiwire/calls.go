package openaiwire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// ErrUnexpectedOutput is matched by errors reporting model output the
// adapters cannot represent in the conversation.
var ErrUnexpectedOutput = errors.New("openai: unexpected output")

// FunctionCallPart turns a function call the model made into a message part.
// name is the conversation's name of the called tool (already mapped back
// from the wire). JSON arguments are kept compact, as a stored history keeps
// them; arguments that are not JSON are kept verbatim as malformed
// arguments. With emulated discovery (neutral not nil), a call of the
// discovery tool is a discovery call whose names neutral maps back from the
// wire; one whose arguments discovery.ParseCall rejects stays a tool call of
// the discovery tool, so the caller answers it with an error the model
// reads.
func FunctionCallPart(id, name, args string, neutral func(string) string) (model.Part, error) {
	if id == "" {
		return model.Part{}, fmt.Errorf("%w: function call %q has no call id", ErrUnexpectedOutput, name)
	}
	call := model.ToolCall{ID: id, Name: name}
	switch {
	case args == "":
		return model.Part{}, fmt.Errorf("%w: function call %q has no arguments", ErrUnexpectedOutput, id)
	case json.Valid([]byte(args)):
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(args)); err != nil {
			return model.Part{}, fmt.Errorf("openai: function call %q: %w", id, err)
		}
		call.Arguments = b.Bytes()
	default:
		call.MalformedArguments = args
	}
	if neutral != nil && call.Name == discovery.ToolName {
		if dc, err := discovery.ParseCall(call); err == nil {
			NeutralNames(dc.Names, neutral)
			return model.DiscoveryCallPart(dc), nil
		}
	}
	return model.ToolCallPart(call), nil
}

// NeutralNames maps, in place, the tool names a model passed to the
// discovery tool: a name the request declares under a shortened wire name
// becomes the conversation's name; any other name stays as written.
func NeutralNames(names []string, neutral func(string) string) {
	for i, n := range names {
		names[i] = neutral(n)
	}
}
