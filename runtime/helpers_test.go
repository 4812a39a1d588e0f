package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/planner"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// scriptedClient is a model.Client test double: it checks every request as
// a provider adapter does (discovery.Check), returns prepared responses in
// order and records the requests.
type scriptedClient struct {
	mu        sync.Mutex
	responses []*model.Response
	requests  []*model.Request
	mode      model.DiscoveryMode
}

func newScriptedClient(responses ...*model.Response) *scriptedClient {
	return &scriptedClient{responses: responses, mode: model.DiscoveryEmulated}
}

func (c *scriptedClient) Complete(_ context.Context, req *model.Request) (*model.Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests = append(c.requests, req)
	if err := discovery.Check(req, model.Capabilities{Discovery: c.mode}); err != nil {
		return nil, fmt.Errorf("scripted client: request %d fails the adapters' check: %w", len(c.requests), err)
	}
	if len(c.responses) == 0 {
		return nil, fmt.Errorf("scripted client: no response left for request %d", len(c.requests))
	}
	r := c.responses[0]
	c.responses = c.responses[1:]
	return r, nil
}

func (c *scriptedClient) Stream(context.Context, *model.Request) (model.Stream, error) {
	return nil, fmt.Errorf("scripted client: streaming is not scripted")
}

func (c *scriptedClient) Capabilities(string) model.Capabilities {
	return model.Capabilities{Discovery: c.mode}
}

// requestTools returns the names each recorded request declared.
func (c *scriptedClient) requestTools() [][]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([][]string, len(c.requests))
	for i, r := range c.requests {
		out[i] = []string{}
		for _, t := range r.Tools {
			out[i] = append(out[i], t.Name)
		}
	}
	return out
}

// respond builds a response from parts, applying the finish rule.
func respond(t testing.TB, parts ...model.Part) *model.Response {
	t.Helper()
	r, err := model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{InputTokens: 10, OutputTokens: 2})
	if err != nil {
		t.Fatalf("scripted response: %v", err)
	}
	return r
}

func final(t testing.TB, text string) *model.Response { return respond(t, model.TextPart(text)) }

func callPart(id, name, args string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)})
}

func searchPart(id, query string, names ...string) model.Part {
	return model.DiscoveryCallPart(model.DiscoveryCall{ID: id, Query: query, Names: names})
}

// toolPayload is the argument schema of every test tool.
const toolPayload = `{"type":"object","properties":{"id":{"type":"string","description":"record id"}},"required":["id"],"additionalProperties":false}`

// toolDef describes one test tool.
type toolDef struct {
	name, description string
	contract          *tools.Contract
}

// recordingExecutor is a ToolExecutor test double: it answers every call
// with the tool and arguments it got and records the calls.
type recordingExecutor struct {
	mu    sync.Mutex
	calls []*runtime.ToolInvocation
}

func (e *recordingExecutor) Execute(_ context.Context, inv *runtime.ToolInvocation) (any, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls = append(e.calls, inv)
	return fmt.Sprintf("%s(%s)", inv.Tool, inv.Arguments), nil
}

func (e *recordingExecutor) count() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.calls)
}

// toolsetSchema builds a toolset schema of the given tools.
func toolsetSchema(t testing.TB, name string, defs ...toolDef) tools.ToolsetSchema {
	t.Helper()
	ts := tools.ToolsetSchema{Name: name, Description: name + " tools"}
	for _, d := range defs {
		id, err := tools.NewIdent(name, d.name)
		if err != nil {
			t.Fatal(err)
		}
		ts.Tools = append(ts.Tools, tools.ToolSchema{Name: id, Description: d.description, Payload: json.RawMessage(toolPayload), Contract: d.contract})
	}
	return ts
}

// registerToolset registers a toolset of defs with exec.
func registerToolset(t testing.TB, rt *runtime.Runtime, name string, exec runtime.ToolExecutor, defs ...toolDef) tools.ToolsetSchema {
	t.Helper()
	ts := toolsetSchema(t, name, defs...)
	schema := tools.MustCompileSchema([]byte(toolPayload))
	reg := runtime.ToolsetRegistration{Schema: ts, Executor: exec}
	for _, tool := range ts.Tools {
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: tool.Name, Description: tool.Description, Payload: tools.NewRawCodec(schema)})
	}
	if err := rt.RegisterToolset(reg); err != nil {
		t.Fatal(err)
	}
	return ts
}

// recordsTools is the "records" toolset of most tests: lookup stays
// immediate, the others are deferred.
var recordsTools = []toolDef{
	{name: "lookup", description: "Look up a customer record by id"},
	{name: "search", description: "Search customer records by keywords"},
	{name: "analyze", description: "Analyze revenue trends of a set of records"},
	{name: "delete", description: "Delete a customer record permanently"},
	{name: "export", description: "Export records to a spreadsheet file", contract: &tools.Contract{RequiredLabels: map[string]string{"tier": "pro"}}},
}

// newRecordsRuntime returns a runtime with the records toolset and an agent
// "assistant" planned by a ready planner over client.
func newRecordsRuntime(t testing.TB, client model.Client, mutate func(*runtime.AgentRegistration)) (*runtime.Runtime, *recordingExecutor) {
	t.Helper()
	rt := runtime.New()
	exec := &recordingExecutor{}
	registerToolset(t, rt, "records", exec, recordsTools...)
	reg := runtime.AgentRegistration{
		Name:      "assistant",
		Immediate: []tools.Ident{"records.lookup"},
		Deferred:  []tools.Ident{"records.search", "records.analyze", "records.delete", "records.export"},
		Planner:   planner.New(client, "test-model"),
	}
	if mutate != nil {
		mutate(&reg)
	}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	return rt, exec
}

func userSays(text string) []model.Message { return []model.Message{model.UserMessage(text)} }

// toolResults returns the tool results of a history, by call id.
func toolResults(msgs []model.Message) map[string]model.ToolResult {
	out := make(map[string]model.ToolResult)
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.ToolResult != nil {
				out[p.ToolResult.CallID] = *p.ToolResult
			}
		}
	}
	return out
}

// discoveryResults returns the discovery results of a history, by call id.
func discoveryResults(msgs []model.Message) map[string]model.DiscoveryResult {
	out := make(map[string]model.DiscoveryResult)
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.DiscoveryResult != nil {
				out[p.DiscoveryResult.CallID] = *p.DiscoveryResult
			}
		}
	}
	return out
}

func snapshotNames(r model.DiscoveryResult) []string {
	out := []string{}
	for _, s := range r.Tools {
		out = append(out, s.Name)
	}
	return out
}

// plannerFor returns a ready planner over client.
func plannerFor(client model.Client) runtime.Planner { return planner.New(client, "test-model") }
