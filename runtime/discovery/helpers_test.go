package discovery

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// objectSchema is a minimal valid parameter schema.
const objectSchema = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`

// strictSchema is a parameter schema inside the strict-capable contract.
const strictSchema = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`

func snap(name string) model.ToolSnapshot {
	return model.ToolSnapshot{Name: name, Description: "the " + name + " tool", Parameters: json.RawMessage(objectSchema)}
}

func strictSnap(name string) model.ToolSnapshot {
	s := snap(name)
	s.Parameters = json.RawMessage(strictSchema)
	s.Strict = new(true)
	return s
}

func appTool(name string) model.ToolDefinition {
	return model.ToolDefinition{Name: name, Description: "application tool " + name, Parameters: json.RawMessage(objectSchema)}
}

func discoveryCall(id string, names ...string) model.Part {
	return model.DiscoveryCallPart(model.DiscoveryCall{ID: id, Names: names})
}

func toolCall(id, name string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{"id":"r1"}`)})
}

func result(id string, snaps ...model.ToolSnapshot) model.DiscoveryResult {
	return model.DiscoveryResult{CallID: id, Tools: snaps}
}

func toolResult(id, name string) model.ToolResult {
	return model.ToolResult{CallID: id, Name: name, Content: "ok"}
}

// wantRule checks that err is a *model.ValidationError for rule at message
// msg, part part; an empty rule wants no error.
func wantRule(t *testing.T, err error, rule model.Rule, msg, part int) {
	t.Helper()
	if rule == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	var verr *model.ValidationError
	if !errors.As(err, &verr) || !errors.Is(err, model.ErrInvalidRequest) {
		t.Fatalf("error = %v, want a *model.ValidationError with rule %s", err, rule)
	}
	if verr.Rule != rule || verr.Message != msg || verr.Part != part {
		t.Fatalf("error = %v (rule %s, message %d, part %d), want rule %s, message %d, part %d", err, verr.Rule, verr.Message, verr.Part, rule, msg, part)
	}
}

func names(defs []model.ToolDefinition) []string {
	out := make([]string, len(defs))
	for i, d := range defs {
		out[i] = d.Name
	}
	return out
}
