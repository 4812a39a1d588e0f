package promptcache

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/anthropic"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/emulation"
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

// rendering is one adapter configuration.
type rendering struct {
	name, path, model string
	// catalog is conversation catalog mode; native renderings ignore it.
	catalog bool
	client  func(url string) model.Client
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
		{"Anthropic native (client search)", "/v1/messages", "claude-sonnet-4-5", false, anth()},
		{"Anthropic emulated", "/v1/messages", "claude-opus-4-1", false, anth()},
		{"Anthropic emulated, conversation catalog", "/v1/messages", "claude-opus-4-1", true, anth()},
		{"Anthropic forced emulation", "/v1/messages", "claude-sonnet-4-5", false, anth(anthropic.WithEmulation())},
		{"Anthropic forced emulation, conversation catalog", "/v1/messages", "claude-sonnet-4-5", true, anth(anthropic.WithEmulation())},
		{"OpenAI Responses native", "/responses", "gpt-5.4", false, oai()},
		{"OpenAI Responses emulated", "/responses", "gpt-4.1", false, oai()},
		{"OpenAI Responses emulated, conversation catalog", "/responses", "gpt-4.1", true, oai()},
		{"OpenAI Responses forced emulation, conversation catalog", "/responses", "gpt-5.4", true, oai(openai.WithEmulation())},
		{"Chat Completions", "/chat/completions", "gpt-4.1", false, chat},
		{"Chat Completions, conversation catalog", "/chat/completions", "gpt-4.1", true, chat},
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
	var f figure
	for i := 1; i < len(prompts); i++ {
		prev, cur := prompts[i-1], prompts[i]
		n := commonPrefix(prev, cur)
		f.shares = append(f.shares, float64(n)/float64(len(cur)))
		if n == len(prev) {
			f.kept = append(f.kept, i+1)
		}
	}
	return f
}

func withRecord(m model.Message, resp *model.Response) model.Message {
	if rec, ok := resp.Message.Meta[emulation.MetaKey]; ok {
		m.Meta = map[string]json.RawMessage{emulation.MetaKey: rec}
	}
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
		native := !r.catalog && (r.name == "Anthropic native (client search)" || r.name == "OpenAI Responses native")
		switch {
		case r.catalog && len(f.kept) != steps-1:
			t.Errorf("%s: %d of %d requests keep the previous one whole, want all: kept %v", r.name, len(f.kept), steps-1, f.kept)
		case native && len(f.kept) != steps-3:
			t.Errorf("%s: %d of %d requests keep the previous one whole, want all but the two catalog changes: kept %v", r.name, len(f.kept), steps-1, f.kept)
		case !r.catalog && !native && len(f.kept) > steps/2:
			t.Errorf("%s: %d of %d requests keep the previous one whole; the default emulated rendering should lose it at each discovery", r.name, len(f.kept), steps-1)
		}
	}
	t.Log("\n" + table.String())
	golden.File(t, "testdata/figures.md", []byte(table.String()))
}
