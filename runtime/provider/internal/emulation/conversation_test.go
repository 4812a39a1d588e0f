package emulation

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func discovered(name, desc string) model.ToolDefinition {
	return model.ToolDefinition{Name: name, Description: desc, Parameters: json.RawMessage(`{"type":"object"}`), Kind: model.ToolDiscovered}
}

// TestCatalogChanges walks a conversation whose catalog grows, changes and
// shrinks: each request appends the catalog message of the change since the
// last one (the complete catalog first), its answer records it, and the
// declarations never change.
func TestCatalogChanges(t *testing.T) {
	app := model.ToolDefinition{Name: "get_time", Parameters: json.RawMessage(`{"type":"object"}`), Kind: model.ToolApplication}
	steps := []struct {
		catalog []model.ToolDefinition
		want    string // the appended catalog message; "" for none
	}{
		{nil, ""},
		{[]model.ToolDefinition{discovered("a", "A")}, "Tool catalog: 1 tool. Call them with call_tool, giving the tool's name and its arguments.\n" +
			`{"name":"a","description":"A","parameters":{"type":"object"}}`},
		{[]model.ToolDefinition{discovered("a", "A")}, ""},
		{[]model.ToolDefinition{discovered("a", "A"), discovered("b", "B")}, "Tool catalog update.\nAdded 1 tool:\n" +
			`{"name":"b","description":"B","parameters":{"type":"object"}}`},
		{[]model.ToolDefinition{discovered("a", "A2"), discovered("b", "B"), discovered("c", "C")}, "Tool catalog update.\nAdded 1 tool:\n" +
			`{"name":"c","description":"C","parameters":{"type":"object"}}` + "\nChanged 1 tool (use these definitions from now on):\n" +
			`{"name":"a","description":"A2","parameters":{"type":"object"}}`},
		{[]model.ToolDefinition{discovered("c", "C")}, "Tool catalog update.\nRemoved 2 tools (no longer callable): a, b"},
		{[]model.ToolDefinition{discovered("a", "A2"), discovered("c", "C")}, "Tool catalog update.\nAdded 1 tool:\n" +
			`{"name":"a","description":"A2","parameters":{"type":"object"}}`},
	}
	history := []model.Message{model.UserMessage("go")}
	var tools []model.ToolDefinition
	for i, st := range steps {
		req := &model.Request{Model: "m", Messages: history, Discovery: model.Discovery{Enabled: true},
			Tools: append([]model.ToolDefinition{app, discovery.Tool("")}, st.catalog...)}
		conv, err := Rewrite(req)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if i > 0 && !cmp.Equal(tools, conv.Request.Tools) {
			t.Errorf("step %d: declarations changed:\n%s", i, cmp.Diff(tools, conv.Request.Tools))
		}
		tools = conv.Request.Tools
		msgs := conv.Request.Messages
		got := ""
		if conv.pending != nil {
			got = msgs[len(msgs)-1].Text()
		}
		if got != st.want {
			t.Errorf("step %d: catalog message\n%s\nwant\n%s", i, got, st.want)
		}
		resp := &model.Response{Message: model.AssistantMessage(model.TextPart("ok"))}
		conv.Finish(resp)
		if _, ok := resp.Message.Meta[MetaKey]; ok != (st.want != "") {
			t.Errorf("step %d: record in the answer = %v, want %v", i, ok, st.want != "")
		}
		history = append(history, resp.Message, model.UserMessage("next"))
	}
	if names := []string{tools[0].Name, tools[1].Name, tools[2].Name}; !cmp.Equal(names, []string{"get_time", discovery.ToolName, discovery.DispatcherName}) || len(tools) != 3 {
		t.Errorf("declared %v", tools)
	}
	if !strings.Contains(tools[1].Description, "called through call_tool") {
		t.Errorf("discovery tool description: %s", tools[1].Description)
	}
}

// TestDispatchedCalls checks both directions: a dispatcher call in a
// response becomes the call of its tool, and that call renders as the
// dispatcher call again; application and discovery calls, and a dispatcher
// call that could not be read, stay as they are.
func TestDispatchedCalls(t *testing.T) {
	app := model.ToolDefinition{Name: "get_time", Parameters: json.RawMessage(`{"type":"object"}`), Kind: model.ToolApplication}
	conv, err := Rewrite(&model.Request{Messages: []model.Message{model.UserMessage("go")}, Tools: []model.ToolDefinition{app, discovered("a", "A")}})
	if err != nil {
		t.Fatal(err)
	}
	resp := &model.Response{Message: model.AssistantMessage(
		model.ToolCallPart(model.ToolCall{ID: "1", Name: discovery.DispatcherName, Arguments: json.RawMessage(`{"name":"a","arguments":{"x":1}}`)}),
		model.ToolCallPart(model.ToolCall{ID: "2", Name: "get_time", Arguments: json.RawMessage(`{}`)}),
		model.ToolCallPart(model.ToolCall{ID: "3", Name: discovery.DispatcherName, Arguments: json.RawMessage(`{"arguments":{}}`)}),
	)}
	conv.Finish(resp)
	want := []model.ToolCall{
		{ID: "1", Name: "a", Arguments: json.RawMessage(`{"x":1}`)},
		{ID: "2", Name: "get_time", Arguments: json.RawMessage(`{}`)},
		{ID: "3", Name: discovery.DispatcherName, Arguments: json.RawMessage(`{"arguments":{}}`)},
	}
	if diff := cmp.Diff(want, resp.ToolCalls()); diff != "" {
		t.Fatalf("finished calls (-want +got):\n%s", diff)
	}
	again, err := Rewrite(&model.Request{Messages: []model.Message{model.UserMessage("go"), resp.Message}, Tools: []model.ToolDefinition{app, discovered("a", "A")}})
	if err != nil {
		t.Fatal(err)
	}
	rendered := again.Request.Messages[len(again.Request.Messages)-1].ToolCalls()
	want[0] = model.ToolCall{ID: "1", Name: discovery.DispatcherName, Arguments: json.RawMessage(`{"name":"a","arguments":{"x":1}}`)}
	if diff := cmp.Diff(want, rendered); diff != "" {
		t.Errorf("rendered calls (-want +got):\n%s", diff)
	}
}

// TestStructuredOutputKeepsCatalog checks that a structured-output request,
// which declares no discovered tools, announces no removal.
func TestStructuredOutputKeepsCatalog(t *testing.T) {
	first, err := Rewrite(&model.Request{Messages: []model.Message{model.UserMessage("go")}, Tools: []model.ToolDefinition{discovered("a", "A")}})
	if err != nil {
		t.Fatal(err)
	}
	resp := &model.Response{Message: model.AssistantMessage(model.TextPart("ok"))}
	first.Finish(resp)
	history := []model.Message{model.UserMessage("go"), resp.Message, model.UserMessage("answer as JSON")}
	conv, err := Rewrite(&model.Request{Messages: history, ResponseFormat: &model.ResponseFormat{Name: "f", Schema: json.RawMessage(`{"type":"object"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	if conv.pending != nil || len(conv.Request.Messages) != len(history)+1 {
		t.Errorf("a structured-output request changed the catalog: %s", conv.pending)
	}
}

func TestRewriteRefusesBrokenRecord(t *testing.T) {
	for _, raw := range []string{`{"text":""}`, `[1]`, `{"text":"x","tools":"no"}`} {
		_, err := Rewrite(&model.Request{Messages: []model.Message{model.UserMessage("go"),
			{Role: model.RoleAssistant, Parts: []model.Part{model.TextPart("ok")}, Meta: map[string]json.RawMessage{MetaKey: json.RawMessage(raw)}}}})
		var verr *model.ValidationError
		if !errors.As(err, &verr) || verr.Rule != RuleCatalogRecord || verr.Message != 1 {
			t.Errorf("%s: err = %v", raw, err)
		}
	}
}
