package discovery

import (
	"errors"
	"fmt"
	"sync"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// ErrInvalidArguments is matched by every *ArgumentError.
var ErrInvalidArguments = errors.New("discovery: invalid tool call arguments")

// ArgumentError reports a call to a discovered tool whose arguments do not
// match the tool's parameters. The call must not run; ErrorResult turns the
// error into the result the model reads.
type ArgumentError struct {
	// CallID is the call's id.
	CallID string
	// Tool is the called tool's name.
	Tool string
	// Err says what is wrong: malformed JSON, a schema violation
	// (*tools.ValidationError), or a call of another tool.
	Err error
}

// Error names the call and the failure.
func (e *ArgumentError) Error() string {
	return fmt.Sprintf("discovery: call %q of tool %q: %v", e.CallID, e.Tool, e.Err)
}

// Unwrap returns the underlying failure.
func (e *ArgumentError) Unwrap() error { return e.Err }

// Is makes an *ArgumentError match ErrInvalidArguments.
func (e *ArgumentError) Is(target error) bool { return target == ErrInvalidArguments }

// ArgumentChecker validates calls to discovered tools against the JSON
// Schema of the snapshot each call binds to (see Discovered). It compiles
// each distinct parameter schema once and is safe for concurrent use; the
// zero value is ready. Keep one per run or per catalog: it keeps every
// schema it compiled.
type ArgumentChecker struct {
	mu      sync.Mutex
	schemas map[string]*tools.Schema
}

// Check reports why call may not run as a call of the tool s describes, as
// an *ArgumentError: the call names another tool, its arguments are not
// JSON, or they violate s.Parameters. A nil error means the arguments
// match.
func (c *ArgumentChecker) Check(s model.ToolSnapshot, call model.ToolCall) error {
	fail := func(err error) error { return &ArgumentError{CallID: call.ID, Tool: call.Name, Err: err} }
	if call.Name != s.Name {
		return fail(fmt.Errorf("the call names %q but the snapshot is of %q", call.Name, s.Name))
	}
	if len(call.Arguments) == 0 {
		return fail(fmt.Errorf("%w: the arguments are not valid JSON: %q", tools.ErrPayloadInvalid, truncateName(call.MalformedArguments)))
	}
	schema, err := c.schema(s.Parameters)
	if err != nil {
		return fail(fmt.Errorf("the tool's parameters: %w", err))
	}
	if err := schema.Validate(call.Arguments); err != nil {
		return fail(err)
	}
	return nil
}

func (c *ArgumentChecker) schema(raw []byte) (*tools.Schema, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.schemas[string(raw)]; ok {
		return s, nil
	}
	s, err := tools.CompileSchema(raw)
	if err != nil {
		return nil, err
	}
	if c.schemas == nil {
		c.schemas = make(map[string]*tools.Schema)
	}
	c.schemas[string(raw)] = s
	return s, nil
}

// CheckArguments is ArgumentChecker.Check without a cache: it compiles the
// snapshot's schema on every call.
func CheckArguments(s model.ToolSnapshot, call model.ToolCall) error {
	var c ArgumentChecker
	return c.Check(s, call)
}

// ErrorResult returns the tool result that answers a call which did not
// run because of err: an error result naming the call's tool, whose content
// is err's message for the model.
func ErrorResult(call model.ToolCall, err error) model.ToolResult {
	msg := err.Error()
	var aerr *ArgumentError
	if errors.As(err, &aerr) {
		msg = fmt.Sprintf("The call was not run: its arguments do not match the parameters of %q: %v", aerr.Tool, aerr.Err)
	}
	return model.ToolResult{CallID: call.ID, Name: call.Name, Content: msg, IsError: true}
}
