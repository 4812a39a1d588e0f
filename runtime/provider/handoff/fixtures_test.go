package handoff

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	openaioption "github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openai"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openaichat"
)

// rendering is one adapter in one discovery rendering, with the scripted
// answers its provider gives.
type rendering struct {
	name string
	// path is the API path the adapter posts to.
	path string
	// model is the model ID the requests name.
	model string
	// client returns the adapter talking to the test server at url.
	client func(url string) model.Client
	// loop are the provider's answers of a discover -> call -> answer run:
	// a discovery by the query "look up a record", a call of records_lookup
	// for r1, the answer "Record r1 is late.".
	loop []string
	// call answers with a call of records_lookup for r2, id "t1" in the
	// provider's own id form.
	call string
	// answer answers with the text "Record r2 is on time.".
	answer string
	// records are strings found only in this rendering's native records,
	// which no other rendering may send.
	records []string
	// check reports what the provider would reject in a request body.
	check func(t *testing.T, body []byte)
	// shape returns what prompt caching sees of a request body: the
	// declarations and the rendered history items, in order.
	shape func(t *testing.T, body []byte) (json.RawMessage, []json.RawMessage)
}

const (
	claudeNative   = "claude-sonnet-4-5-20250929"
	claudeEmulated = "claude-sonnet-4-20250514"
	gptNative      = "gpt-5.4"
	gptEmulated    = "gpt-4.1"
)

func anthropicClient(opts ...anthropic.Option) func(string) model.Client {
	return func(url string) model.Client {
		base := []anthropic.Option{anthropic.WithBaseURL(url), anthropic.WithAPIKey("test-key"),
			anthropic.WithRequestOptions(anthropicoption.WithMaxRetries(0))}
		return anthropic.New(append(base, opts...)...)
	}
}

func openaiClient(opts ...openai.Option) func(string) model.Client {
	return func(url string) model.Client {
		base := []openai.Option{openai.WithBaseURL(url), openai.WithAPIKey("test-key"),
			openai.WithRequestOptions(openaioption.WithMaxRetries(0))}
		return openai.New(append(base, opts...)...)
	}
}

func chatClient(url string) model.Client {
	return openaichat.New(openaichat.WithBaseURL(url), openaichat.WithAPIKey("test-key"),
		openaichat.WithRequestOptions(openaioption.WithMaxRetries(0)))
}

// claudeMessage is a Messages API answer with the given content blocks.
func claudeMessage(stop string, blocks ...string) string {
	return fmt.Sprintf(`{"id":"msg_1","type":"message","role":"assistant","model":%q,"content":[%s],"stop_reason":%q,"stop_sequence":null,"usage":{"input_tokens":100,"output_tokens":20,"cache_read_input_tokens":80,"cache_creation_input_tokens":10}}`,
		claudeNative, strings.Join(blocks, ","), stop)
}

// responsesMessage is a completed Responses API answer with the given
// output items.
func responsesMessage(items ...string) string {
	return `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-5.4","output":[` + strings.Join(items, ",") +
		`],"usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":100},"output_tokens":20,"output_tokens_details":{"reasoning_tokens":8},"total_tokens":140}}`
}

// chatCompletion is a Chat Completions answer whose choice has the given
// message and finish reason.
func chatCompletion(message, finish string) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":%s,"finish_reason":%q,"logprobs":null}],"usage":{"prompt_tokens":120,"completion_tokens":20,"total_tokens":140}}`, message, finish)
}

// chatCall is a Chat Completions assistant message calling one function.
func chatCall(id, name, args string) string {
	return fmt.Sprintf(`{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}]}`, id, name, args)
}

func chatText(text string) string {
	return fmt.Sprintf(`{"role":"assistant","content":%q,"refusal":null}`, text)
}

const (
	claudeThinking = `{"type":"thinking","thinking":"Find a tool that looks up records.","signature":"EqQBCkYIBxgCKkAhandoff"}`
	claudeSearch   = `{"type":"tool_use","id":"toolu_s1","name":"tool_search","input":{"query":"look up a record"}}`
	claudeLookupR1 = `{"type":"tool_use","id":"toolu_f1","name":"records_lookup","input":{"id":"r1"}}`
	claudeLookupR2 = `{"type":"tool_use","id":"toolu_t1","name":"records_lookup","input":{"id":"r2"}}`
	claudeHosted   = `{"type":"server_tool_use","id":"srvtoolu_s1","name":"tool_search_tool_bm25","input":{"query":"look up a record"}},` +
		`{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_s1","content":{"type":"tool_search_tool_search_result","tool_references":[` +
		`{"type":"tool_reference","tool_name":"records_lookup"},{"type":"tool_reference","tool_name":"records_search"}]}}`

	gptReasoning = `{"type":"reasoning","id":"rs_h1","summary":[]}`
	gptSearch    = `{"type":"tool_search_call","id":"tsc_h1","call_id":"call_s1","execution":"client","status":"completed","arguments":{"query":"look up a record"}}`
	gptNSLookup  = `{"type":"function_call","id":"fc_h1","call_id":"call_f1","namespace":"records","name":"lookup","arguments":"{\"id\":\"r1\"}","status":"completed"}`
	gptNSLookup2 = `{"type":"function_call","id":"fc_h2","call_id":"call_t1","namespace":"records","name":"lookup","arguments":"{\"id\":\"r2\"}","status":"completed"}`
	gptEmuSearch = `{"type":"function_call","id":"fc_h0","call_id":"call_s1","name":"tool_search","arguments":"{\"query\":\"look up a record\"}","status":"completed"}`
	gptLookup    = `{"type":"function_call","id":"fc_h1","call_id":"call_f1","name":"records_lookup","arguments":"{\"id\":\"r1\"}","status":"completed"}`
	gptLookup2   = `{"type":"function_call","id":"fc_h2","call_id":"call_t1","name":"records_lookup","arguments":"{\"id\":\"r2\"}","status":"completed"}`
)

func gptText(text string) string {
	return fmt.Sprintf(`{"type":"message","id":"msg_h1","role":"assistant","status":"completed","content":[{"type":"output_text","text":%q,"annotations":[]}]}`, text)
}

// renderings lists every adapter and rendering. The Chat Completions one
// stands for an OpenAI-compatible endpoint whose call ids hold characters
// other providers do not accept in ids.
func renderings() []rendering {
	claudeLoop := []string{
		claudeMessage("tool_use", claudeThinking, claudeSearch),
		claudeMessage("tool_use", claudeLookupR1),
		claudeMessage("end_turn", `{"type":"text","text":"Record r1 is late."}`),
	}
	claude := func(name, modelID string, records []string, opts ...anthropic.Option) rendering {
		return rendering{
			name: name, path: "/v1/messages", model: modelID, client: anthropicClient(opts...),
			loop:   claudeLoop,
			call:   claudeMessage("tool_use", claudeLookupR2),
			answer: claudeMessage("end_turn", `{"type":"text","text":"Record r2 is on time."}`),
			// Thinking goes back on every Anthropic rendering, and to no
			// other adapter.
			records: append(records, `"type":"thinking"`, `"signature"`),
			check:   checkMessages,
			shape:   shapeOf("messages"),
		}
	}
	hosted := claude("anthropic_hosted", claudeNative, []string{`"server_tool_use"`, `"tool_search_tool_result"`, `"tool_reference"`}, anthropic.WithHostedSearch(anthropic.SearchBM25))
	hosted.loop = []string{
		claudeMessage("tool_use", claudeHosted, claudeLookupR1),
		claudeMessage("end_turn", `{"type":"text","text":"Record r1 is late."}`),
	}
	gpt := func(name, modelID string, native bool, opts ...openai.Option) rendering {
		r := rendering{
			name: name, path: "/responses", model: modelID, client: openaiClient(opts...),
			loop:   []string{responsesMessage(gptEmuSearch), responsesMessage(gptLookup), responsesMessage(gptText("Record r1 is late."))},
			call:   responsesMessage(gptLookup2),
			answer: responsesMessage(gptText("Record r2 is on time.")),
			check:  checkResponses,
			shape:  shapeOf("input"),
		}
		if native {
			r.loop = []string{responsesMessage(gptReasoning, gptSearch), responsesMessage(gptNSLookup), responsesMessage(gptText("Record r1 is late."))}
			r.call = responsesMessage(gptNSLookup2)
			r.records = []string{`"rs_h1"`, `"tool_search_call"`, `"tool_search_output"`, `"namespace"`}
		}
		return r
	}
	return []rendering{
		claude("anthropic_client_search", claudeNative, []string{`"tool_reference"`}),
		hosted,
		claude("anthropic_emulated", claudeEmulated, nil),
		gpt("openai_native", gptNative, true),
		gpt("openai_emulated", gptEmulated, false),
		gpt("openai_forced_emulation", gptNative, false, openai.WithEmulation()),
		{
			name: "openai_compatible_chat", path: "/chat/completions", model: gptEmulated, client: chatClient,
			loop: []string{
				chatCompletion(chatCall("functions.tool_search:0", "tool_search", `{"query":"look up a record"}`), "tool_calls"),
				chatCompletion(chatCall("functions.records_lookup:1", "records_lookup", `{"id":"r1"}`), "tool_calls"),
				chatCompletion(chatText("Record r1 is late."), "stop"),
			},
			call:   chatCompletion(chatCall("functions.records_lookup:2", "records_lookup", `{"id":"r2"}`), "tool_calls"),
			answer: chatCompletion(chatText("Record r2 is on time."), "stop"),
			check:  checkChat,
			shape:  shapeOf("messages"),
		},
	}
}

// shapeOf returns the shape of a body whose history is the member history.
func shapeOf(history string) func(*testing.T, []byte) (json.RawMessage, []json.RawMessage) {
	return func(t *testing.T, body []byte) (json.RawMessage, []json.RawMessage) {
		t.Helper()
		var b map[string]json.RawMessage
		if err := json.Unmarshal(body, &b); err != nil {
			t.Fatalf("request body: %v", err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(b[history], &items); err != nil {
			t.Fatalf("request %s: %v", history, err)
		}
		return b["tools"], items
	}
}

// source runs r's discover -> call -> answer loop over the shared catalog
// and returns the history, stored as JSON and reloaded.
func source(t *testing.T, r rendering) []model.Message {
	t.Helper()
	replies := make([]openaitest.Reply, len(r.loop))
	for i, body := range r.loop {
		replies[i] = openaitest.Reply{Body: body}
	}
	api := openaitest.New(t, r.path, replies...)
	c := r.client(api.URL())
	history := openaitest.Start()
	for step := 1; ; step++ {
		if step > len(r.loop) {
			t.Fatalf("%s: the run did not end", r.name)
		}
		resp, err := c.Complete(t.Context(), prepare(t, c, r.model, history))
		if err != nil {
			t.Fatalf("%s: step %d: %v", r.name, step, err)
		}
		history = append(history, resp.Message)
		if resp.FinishReason != model.FinishToolCalls {
			break
		}
		history = append(history, answer(t, resp)...)
	}
	if got := history[len(history)-1].Text(); got != "Record r1 is late." {
		t.Fatalf("%s: the run ended with %q", r.name, got)
	}
	return reload(t, history)
}

// prepare makes the request for history as the agent runtime does: the
// application's tool (not strict, as every model here accepts it), discovery
// on, the shared catalog.
func prepare(t *testing.T, c model.Client, modelID string, history []model.Message) *model.Request {
	t.Helper()
	app := openaitest.AppTools()
	for i := range app {
		app[i].Strict = false
	}
	req := &model.Request{
		Model:           modelID,
		Messages:        history,
		Tools:           app,
		Discovery:       model.Discovery{Enabled: true},
		MaxOutputTokens: 1024,
	}
	if _, err := discovery.Prepare(req, c.Capabilities(modelID), openaitest.Catalog(t)); err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return req
}

// answer answers the calls of a response as the runtime does: discovery
// calls from the catalog (two tools at most), tool calls with a record.
func answer(t *testing.T, resp *model.Response) []model.Message {
	t.Helper()
	var out []model.Message
	var found []model.DiscoveryResult
	for _, call := range resp.DiscoveryCalls() {
		r, err := openaitest.Catalog(t).Answer(call, 2)
		if err != nil {
			t.Fatalf("answer %+v: %v", call, err)
		}
		found = append(found, r)
	}
	if len(found) > 0 {
		out = append(out, model.DiscoveryMessage(found...))
	}
	var results []model.ToolResult
	for _, call := range resp.ToolCalls() {
		id := strings.TrimPrefix(string(call.Arguments), `{"id":"`)
		results = append(results, model.ToolResult{CallID: call.ID, Name: call.Name, Content: `{"id":"` + id})
	}
	if len(results) > 0 {
		out = append(out, model.ToolMessage(results...))
	}
	return out
}

// reload stores a history as JSON and reads it back.
func reload(t *testing.T, history []model.Message) []model.Message {
	t.Helper()
	raw, err := json.Marshal(history)
	if err != nil {
		t.Fatal(err)
	}
	var out []model.Message
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
