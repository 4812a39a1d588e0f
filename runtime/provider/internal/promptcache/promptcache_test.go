package promptcache

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openai"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openaichat"
)

const (
	steps = 20
	// withheldFrom and withheldUntil bound the steps during which the
	// run's policy withholds the third discovered tool: the two catalog
	// changes (removed at step 12, back at step 16).
	withheldFrom, withheldUntil = 12, 16
	withheldTool                = 2
)

var replies = map[string]string{
	"/v1/messages":      `{"id":"msg_t","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":2,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}`,
	"/responses":        `{"id":"resp_1","object":"response","status":"completed","model":"m","output":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"ok","annotations":[]}]}],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}`,
	"/chat/completions": `{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop","logprobs":null}]}`,
}

// keeps is how much of the previous request a rendering's requests keep.
type keeps int

const (
	// keepsAll: every request keeps the whole previous one.
	keepsAll keeps = iota
	// keepsAllButChanges: all but the two requests where the permitted
	// catalog changes.
	keepsAllButChanges
	// losesAtDiscovery: at most half keep it; each discovery rewrites it.
	losesAtDiscovery
)

// rendering is one adapter configuration.
type rendering struct {
	name, path, model string
	// catalog is conversation catalog mode; native renderings ignore it.
	catalog bool
	client  func(url string) model.Client
	want    keeps
	// toolChanges: the catalog changes are Anthropic tool changes.
	toolChanges bool
	// lostAt, for a native rendering that loses the prefix at the catalog
	// changes, is what the first new line at each change holds: a deferred
	// declaration (Anthropic without tool changes), the earlier
	// tool_search_output item that loaded the withheld tool (OpenAI).
	lostAt string
}

func renderings() []rendering {
	anth := func(opts ...anthropic.Option) func(string) model.Client {
		return func(url string) model.Client {
			return anthropic.New(append([]anthropic.Option{anthropic.WithBaseURL(url), anthropic.WithAPIKey("k")}, opts...)...)
		}
	}
	oai := func(opts ...openai.Option) func(string) model.Client {
		return func(url string) model.Client {
			return openai.New(append([]openai.Option{openai.WithBaseURL(url), openai.WithAPIKey("k")}, opts...)...)
		}
	}
	chat := func(url string) model.Client {
		return openaichat.New(openaichat.WithBaseURL(url), openaichat.WithAPIKey("k"))
	}
	return []rendering{
		{"Anthropic native (client search), Opus 5: tool changes", "/v1/messages", "claude-opus-5", false, anth(), keepsAll, true, ""},
		{"Anthropic native (client search), Sonnet 4.5: no tool changes", "/v1/messages", "claude-sonnet-4-5", false, anth(), keepsAllButChanges, false, `"defer_loading":true`},
		{"Anthropic emulated", "/v1/messages", "claude-opus-4-1", false, anth(), losesAtDiscovery, false, ""},
		{"Anthropic emulated, conversation catalog", "/v1/messages", "claude-opus-4-1", true, anth(), keepsAll, false, ""},
		{"Anthropic forced emulation", "/v1/messages", "claude-sonnet-4-5", false, anth(anthropic.WithEmulation()), losesAtDiscovery, false, ""},
		{"Anthropic forced emulation, conversation catalog", "/v1/messages", "claude-sonnet-4-5", true, anth(anthropic.WithEmulation()), keepsAll, false, ""},
		{"OpenAI Responses native", "/responses", "gpt-5.4", false, oai(), keepsAllButChanges, false, `"type":"tool_search_output"`},
		{"OpenAI Responses emulated", "/responses", "gpt-4.1", false, oai(), losesAtDiscovery, false, ""},
		{"OpenAI Responses emulated, conversation catalog", "/responses", "gpt-4.1", true, oai(), keepsAll, false, ""},
		{"OpenAI Responses forced emulation, conversation catalog", "/responses", "gpt-5.4", true, oai(openai.WithEmulation()), keepsAll, false, ""},
		{"Chat Completions", "/chat/completions", "gpt-4.1", false, chat, losesAtDiscovery, false, ""},
		{"Chat Completions, conversation catalog", "/chat/completions", "gpt-4.1", true, chat, keepsAll, false, ""},
	}
}

// appTool is the application's one immediate tool.
var appTool = model.ToolDefinition{Name: "get_time", Description: "Current time in a time zone",
	Parameters: json.RawMessage(`{"type":"object","properties":{"zone":{"type":"string"}},"required":["zone"]}`), Kind: model.ToolApplication}

// figure is what one rendering's conversation measured.
type figure struct {
	// shares are, per request after the first, the share of its prompt
	// bytes that is a prefix of the previous request's.
	shares []float64
	// kept are the steps whose previous request is a prefix of them whole.
	kept []int
	// bodies and betas are each step's request body and anthropic-beta
	// header; withheld is the tool the policy withholds.
	bodies   [][]byte
	betas    []string
	withheld string
	// diverged are the requests that do not keep the previous one whole.
	diverged []divergence
}

// converse runs the scripted conversation: odd steps discover one new tool
// by name (10 discoveries), even steps call the tool discovered last, and
// the policy withholds one discovered tool from step 12 to step 15.
func converse(t *testing.T, r rendering) figure {
	full, _ := openaitest.LargeCatalog(t, 20)
	names := make([]string, 10)
	for i := range names {
		names[i] = full.Deferred()[i].Name
	}
	withheld := full.Subset(func(i int) bool { return full.Deferred()[i].Name != names[withheldTool] })
	rs := make([]openaitest.Reply, steps)
	for i := range rs {
		rs[i] = openaitest.Reply{Body: replies[r.path]}
	}
	api := openaitest.New(t, r.path, rs...)
	c := r.client(api.URL())
	history := []model.Message{model.SystemMessage("You help with the company's services."), model.UserMessage("Check everything.")}
	f := figure{withheld: names[withheldTool]}
	var prompts [][]byte
	for step := 1; step <= steps; step++ {
		cat := full
		if step >= withheldFrom && step < withheldUntil {
			cat = withheld
		}
		req := &model.Request{Model: r.model, Messages: history, Tools: []model.ToolDefinition{appTool},
			Discovery: model.Discovery{Enabled: true, ConversationCatalog: r.catalog}, MaxOutputTokens: 1024}
		if _, err := discovery.Prepare(req, c.Capabilities(r.model), cat); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		resp, err := c.Complete(context.Background(), req)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		prompts = append(prompts, prompt(t, api.Body(step-1)))
		f.bodies = append(f.bodies, api.Body(step-1))
		f.betas = append(f.betas, api.Header(step-1).Get("anthropic-beta"))
		// The scripted answer stands for the response, with the response's
		// catalog record, as a run appends it.
		var answer model.Message
		id := fmt.Sprintf("call_%02d", step)
		if step%2 == 1 {
			call := model.DiscoveryCall{ID: id, Names: []string{names[step/2]}}
			answer = model.AssistantMessage(model.DiscoveryCallPart(call))
			res, err := cat.Answer(call, 0)
			if err != nil {
				t.Fatal(err)
			}
			history = append(history, withRecord(answer, resp), model.DiscoveryMessage(res))
		} else {
			name := names[step/2-1]
			answer = model.AssistantMessage(model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{"id":"x1"}`)}))
			history = append(history, withRecord(answer, resp), model.ToolMessage(model.ToolResult{CallID: id, Name: name, Content: `{"status":"ok"}`}))
		}
	}
	for i := 1; i < len(prompts); i++ {
		prev, cur := prompts[i-1], prompts[i]
		n := commonPrefix(prev, cur)
		f.shares = append(f.shares, float64(n)/float64(len(cur)))
		if n == len(prev) {
			f.kept = append(f.kept, i+1)
			continue
		}
		f.diverged = append(f.diverged, divergence{step: i + 1, line: string(lineAt(cur, n))})
	}
	return f
}

// divergence is where a request stops repeating the previous one: the
// prompt line (one tool, system block or turn) holding the first new byte.
type divergence struct {
	step int
	line string
}

// lineAt returns the line of prompt that holds byte n.
func lineAt(prompt []byte, n int) []byte {
	start := bytes.LastIndexByte(prompt[:n], '\n') + 1
	end := bytes.IndexByte(prompt[n:], '\n')
	if end < 0 {
		return prompt[start:]
	}
	return prompt[start : n+end]
}

// withRecord gives the scripted answer the records of the response's
// message (a conversation catalog message, mid-conversation tool changes),
// as the run's history keeps them.
// checkToolChanges checks that the two catalog changes went out as
// mid-conversation tool changes: the request of each change ends with a
// system message withdrawing, then offering again, the withheld tool, and
// requests carry the beta from the first change on.
func checkToolChanges(t *testing.T, r rendering, f figure) {
	t.Helper()
	want := map[int]string{
		withheldFrom:  fmt.Sprintf(`{"content":[{"tool":{"name":%q,"type":"tool_reference"},"type":"tool_removal"}],"role":"system"}`, f.withheld),
		withheldUntil: fmt.Sprintf(`{"content":[{"tool":{"name":%q,"type":"tool_reference"},"type":"tool_addition"}],"role":"system"}`, f.withheld),
	}
	for step := 1; step <= steps; step++ {
		var body struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(f.bodies[step-1], &body); err != nil {
			t.Fatal(err)
		}
		last := string(body.Messages[len(body.Messages)-1])
		if w, ok := want[step]; ok && last != w {
			t.Errorf("%s: step %d ends with %s, want %s", r.name, step, last, w)
		}
		if _, ok := want[step]; !ok && strings.Contains(last, `"role":"system"`) {
			t.Errorf("%s: step %d ends with a system message %s; the catalog did not change", r.name, step, last)
		}
		beta := ""
		if step >= withheldFrom {
			beta = anthropic.BetaToolChanges
		}
		if f.betas[step-1] != beta {
			t.Errorf("%s: step %d sends anthropic-beta %q, want %q", r.name, step, f.betas[step-1], beta)
		}
	}
}

func withRecord(m model.Message, resp *model.Response) model.Message {
	m.Meta = maps.Clone(resp.Message.Meta)
	return m
}

// prompt returns a request body's members in the order providers cache a
// prompt (tools, system or instructions, then the turns or input items),
// each array element compact on a line of its own, so that a turn appended
// at the end leaves every earlier byte in place.
func prompt(t *testing.T, body []byte) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, k := range []string{"tools", "system", "instructions", "messages", "input"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		var items []json.RawMessage
		if err := json.Unmarshal(v, &items); err != nil {
			items = []json.RawMessage{v}
		}
		for _, it := range items {
			var c bytes.Buffer
			if err := json.Compact(&c, it); err != nil {
				t.Fatal(err)
			}
			b.Write(c.Bytes())
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// TestPromptCacheFigures measures every rendering over the scripted
// conversation and checks the goal: with native discovery and with
// conversation catalogs every request keeps the whole previous request as
// its prefix, except, for native discovery, at the two steps where the
// permitted catalog changes (its deferred declarations change); the
// default emulated renderings lose the prefix at every discovery.
func TestPromptCacheFigures(t *testing.T) {
	var table strings.Builder
	table.WriteString("| rendering | requests keeping the previous one whole | mean prefix share | lowest prefix share |\n|---|---|---|---|\n")
	for _, r := range renderings() {
		f := converse(t, r)
		mean, low := 0.0, 1.0
		for _, s := range f.shares {
			mean += s
			low = min(low, s)
		}
		mean /= float64(len(f.shares))
		fmt.Fprintf(&table, "| %s | %d of %d | %.1f%% | %.1f%% |\n", r.name, len(f.kept), len(f.shares), 100*mean, 100*low)
		switch {
		case r.want == keepsAll && len(f.kept) != steps-1:
			t.Errorf("%s: %d of %d requests keep the previous one whole, want all: kept %v", r.name, len(f.kept), steps-1, f.kept)
		case r.want == keepsAllButChanges && (len(f.kept) != steps-3 || slices.Contains(f.kept, withheldFrom) || slices.Contains(f.kept, withheldUntil)):
			t.Errorf("%s: %d of %d requests keep the previous one whole, want all but the two catalog changes: kept %v", r.name, len(f.kept), steps-1, f.kept)
		case r.want == losesAtDiscovery && len(f.kept) > steps/2:
			t.Errorf("%s: %d of %d requests keep the previous one whole; the default emulated rendering should lose it at each discovery", r.name, len(f.kept), steps-1)
		}
		if r.toolChanges {
			checkToolChanges(t, r, f)
		}
		if r.lostAt != "" {
			for _, d := range f.diverged {
				if !strings.Contains(d.line, r.lostAt) {
					t.Errorf("%s: step %d diverges at %s, want a line with %s", r.name, d.step, d.line, r.lostAt)
				}
			}
		}
	}
	t.Log("\n" + table.String())
	golden.File(t, "testdata/figures.md", []byte(table.String()))
}
