package discovery

// The dispatcher of conversation catalog mode. In that mode a request
// declares the same tools on every step (the application's tools, the
// discovery tool and the dispatcher), so the provider's prompt cache keeps
// them; discovered tools reach the model as catalog messages and are called
// through the dispatcher by name. An adapter turns a dispatcher call back
// into the ToolCall of the discovered tool (ParseDispatch) and renders that
// ToolCall as a dispatcher call again (DispatchArguments), so the history
// holds calls of the tools themselves and moves between renderings.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// DispatcherName is the name of the dispatcher tool, which calls a
// discovered tool by name in conversation catalog mode. It is reserved.
const DispatcherName = "call_tool"

const dispatcherDescription = "Call a tool listed in the tool catalog of this conversation. " +
	"Give the tool's exact name in \"name\" and its arguments, matching the catalog's parameter schema, " +
	"in \"arguments\". Only tools the catalog lists can be called."

// dispatcherParameters is a constant so that the declaration renders the
// same bytes on every request.
const dispatcherParameters = `{"type":"object","properties":{` +
	`"name":{"type":"string","description":"The exact name of a tool in the catalog."},` +
	`"arguments":{"type":"object","description":"The tool's arguments."}` +
	`},"required":["name","arguments"],"additionalProperties":false}`

// Dispatcher returns the dispatcher tool's definition. It is declared as an
// application tool (kind model.ToolApplication) of the rendered request:
// it is a rendering of calls, never a tool of the catalog.
func Dispatcher() model.ToolDefinition {
	return model.ToolDefinition{
		Name:        DispatcherName,
		Description: dispatcherDescription,
		Parameters:  json.RawMessage(dispatcherParameters),
		Kind:        model.ToolApplication,
	}
}

// ErrInvalidDispatch is matched by every error of ParseDispatch.
var ErrInvalidDispatch = errors.New("discovery: invalid dispatcher call")

// DispatchArguments returns the dispatcher arguments that call c's tool:
// {"name":N,"arguments":A} with c's arguments verbatim, or its malformed
// argument text as a JSON string when c has no valid arguments.
func DispatchArguments(c model.ToolCall) string {
	name, err := json.Marshal(c.Name)
	if err != nil {
		panic(fmt.Sprintf("discovery: encode tool name: %v", err)) // a string always encodes
	}
	args := []byte(c.Arguments)
	if len(args) == 0 {
		if args, err = json.Marshal(c.MalformedArguments); err != nil {
			panic(fmt.Sprintf("discovery: encode malformed arguments: %v", err))
		}
	}
	return `{"name":` + string(name) + `,"arguments":` + string(args) + `}`
}

// ParseDispatch turns a call of the dispatcher into the call of the tool it
// names, with the same ID. The arguments must be a JSON object holding a
// non-empty "name" string and an "arguments" value, and nothing else; an
// "arguments" value that is not an object becomes the call's
// MalformedArguments (its JSON text), so the call is answered with an
// error result rather than run. Errors match ErrInvalidDispatch.
func ParseDispatch(call model.ToolCall) (model.ToolCall, error) {
	fail := func(format string, args ...any) (model.ToolCall, error) {
		return model.ToolCall{}, fmt.Errorf("%w %q: %s", ErrInvalidDispatch, call.ID, fmt.Sprintf(format, args...))
	}
	switch {
	case call.Name != DispatcherName:
		return fail("calls %q, not %q", call.Name, DispatcherName)
	case len(call.Arguments) == 0:
		return fail("arguments are not valid JSON")
	}
	if _, err := tools.Canonicalize(call.Arguments); err != nil {
		return fail("arguments: %v", err)
	}
	var args struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	dec := json.NewDecoder(bytes.NewReader(call.Arguments))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&args); err != nil {
		return fail("arguments: %v", err)
	}
	switch {
	case args.Name == nil || *args.Name == "":
		return fail("no tool name")
	case len(args.Arguments) == 0 || string(args.Arguments) == "null":
		return fail("no arguments for %q", *args.Name)
	}
	out := model.ToolCall{ID: call.ID, Name: *args.Name}
	if args.Arguments[0] == '{' {
		out.Arguments = args.Arguments
	} else {
		out.MalformedArguments = string(args.Arguments)
	}
	return out, nil
}

// ErrNotInCatalog is matched by the error Dispatch returns for a call of a
// tool the catalog does not hold: never discovered, withheld by policy or
// removed.
var ErrNotInCatalog = errors.New("discovery: tool not in the conversation catalog")

// Dispatch decides on a tool call that came through the dispatcher, for an
// application that runs calls without the agent runtime (which applies the
// same rules at admission): catalog holds the discovered tools the request
// declared, by latest snapshot. A call of a name it does not hold fails
// with an error matching ErrNotInCatalog; arguments that do not match the
// tool's schema fail as CheckArguments does. ErrorResult turns either into
// the result the model reads.
func Dispatch(call model.ToolCall, catalog []model.ToolSnapshot) (model.ToolSnapshot, error) {
	for _, s := range catalog {
		if s.Name == call.Name {
			return s, CheckArguments(s, call)
		}
	}
	return model.ToolSnapshot{}, fmt.Errorf("%w: %q", ErrNotInCatalog, call.Name)
}
