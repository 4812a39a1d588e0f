package handoff

import (
	"encoding/json"
	"regexp"
	"testing"
)

// The checks below read request bodies as the providers do and report what
// a provider would reject: a call of a tool the request neither declares
// nor loads, a result that answers no call, an id of the wrong form.

var (
	// toolUseID is the form the Messages API accepts for tool_use ids.
	toolUseID = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	// serverToolUseID is the form it accepts for server_tool_use ids.
	serverToolUseID = regexp.MustCompile(`^srvtoolu_[a-zA-Z0-9_]+$`)
)

func decode(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}

// checkMessages checks a Messages API request body.
func checkMessages(t *testing.T, body []byte) {
	t.Helper()
	var req struct {
		Tools    []struct{ Name string }
		Messages []struct {
			Role    string
			Content []struct {
				Type      string
				ID        string
				Name      string
				ToolUseID string `json:"tool_use_id"`
				Content   json.RawMessage
			}
		}
	}
	decode(t, body, &req)
	declared := map[string]bool{}
	for _, tool := range req.Tools {
		declared[tool.Name] = true
	}
	reference := func(raw json.RawMessage) {
		var blocks []struct {
			Type     string
			ToolName string `json:"tool_name"`
		}
		if len(raw) == 0 || raw[0] != '[' {
			return
		}
		decode(t, raw, &blocks)
		for _, b := range blocks {
			if b.Type == "tool_reference" && !declared[b.ToolName] {
				t.Errorf("tool_reference names %q, which the request does not declare", b.ToolName)
			}
		}
	}
	calls := map[string]bool{}
	for i, m := range req.Messages {
		if want := []string{"user", "assistant"}[i%2]; m.Role != want {
			t.Errorf("turn %d has role %q, want %q", i, m.Role, want)
		}
		for _, b := range m.Content {
			switch b.Type {
			case "tool_use":
				if !toolUseID.MatchString(b.ID) {
					t.Errorf("tool_use id %q does not match %s", b.ID, toolUseID)
				}
				if !declared[b.Name] {
					t.Errorf("tool_use %q calls %q, which the request does not declare", b.ID, b.Name)
				}
				calls[b.ID] = true
			case "server_tool_use":
				if !serverToolUseID.MatchString(b.ID) {
					t.Errorf("server_tool_use id %q does not match %s", b.ID, serverToolUseID)
				}
				if !declared[b.Name] {
					t.Errorf("server_tool_use %q runs %q, which the request does not declare", b.ID, b.Name)
				}
				calls[b.ID] = true
			case "tool_search_tool_result":
				if !calls[b.ToolUseID] {
					t.Errorf("tool_search_tool_result answers %q, which no earlier block calls", b.ToolUseID)
				}
				var c struct {
					References json.RawMessage `json:"tool_references"`
				}
				decode(t, b.Content, &c)
				reference(c.References)
			case "tool_result":
				if !toolUseID.MatchString(b.ToolUseID) || !calls[b.ToolUseID] {
					t.Errorf("tool_result answers %q, which no earlier tool_use calls", b.ToolUseID)
				}
				reference(b.Content)
			}
		}
	}
}

// checkResponses checks a Responses API request body.
func checkResponses(t *testing.T, body []byte) {
	t.Helper()
	type function struct {
		Type  string
		Name  string
		Tools []struct{ Name string }
	}
	var req struct {
		Tools []function
		Input []struct {
			Type      string
			CallID    string `json:"call_id"`
			Name      string
			Namespace string
			Tools     []function
			Arguments json.RawMessage
		}
	}
	decode(t, body, &req)
	type callable struct{ namespace, name string }
	can := map[callable]bool{}
	for _, f := range req.Tools {
		if f.Type == "function" {
			can[callable{"", f.Name}] = true
		}
	}
	for _, it := range req.Input {
		for _, f := range it.Tools {
			if f.Type == "namespace" {
				for _, g := range f.Tools {
					can[callable{f.Name, g.Name}] = true
				}
				continue
			}
			can[callable{"", f.Name}] = true
		}
	}
	searches, calls := map[string]bool{}, map[string]bool{}
	for _, it := range req.Input {
		switch it.Type {
		case "tool_search_call":
			// The native tool_search tool takes a query only.
			var args map[string]any
			decode(t, it.Arguments, &args)
			if q, ok := args["query"].(string); !ok || q == "" || len(args) != 1 {
				t.Errorf("tool_search_call %q has arguments %s, want a query only", it.CallID, it.Arguments)
			}
			searches[it.CallID] = true
		case "tool_search_output":
			if !searches[it.CallID] {
				t.Errorf("tool_search_output answers %q, which no earlier tool_search_call made", it.CallID)
			}
		case "function_call":
			if !can[callable{it.Namespace, it.Name}] {
				t.Errorf("function_call %q calls %q in namespace %q, which the request neither declares nor loads", it.CallID, it.Name, it.Namespace)
			}
			calls[it.CallID] = true
		case "function_call_output":
			if !calls[it.CallID] {
				t.Errorf("function_call_output answers %q, which no earlier function_call made", it.CallID)
			}
		}
	}
}

// checkChat checks a Chat Completions request body.
func checkChat(t *testing.T, body []byte) {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct{ Name string }
		}
		Messages []struct {
			Role       string
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string
				Function struct{ Name string }
			} `json:"tool_calls"`
		}
	}
	decode(t, body, &req)
	declared := map[string]bool{}
	for _, tool := range req.Tools {
		declared[tool.Function.Name] = true
	}
	open := map[string]bool{}
	for i, m := range req.Messages {
		if m.Role != "tool" && len(open) > 0 {
			t.Errorf("message %d (%s) follows calls that are not all answered: %v", i, m.Role, open)
		}
		for _, c := range m.ToolCalls {
			if !declared[c.Function.Name] {
				t.Errorf("tool call %q calls %q, which the request does not declare", c.ID, c.Function.Name)
			}
			open[c.ID] = true
		}
		if m.Role == "tool" {
			if !open[m.ToolCallID] {
				t.Errorf("tool message answers %q, which is not an open call", m.ToolCallID)
			}
			delete(open, m.ToolCallID)
		}
	}
}
