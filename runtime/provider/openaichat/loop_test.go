package openaichat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
	"github.com/goa-discovery/goa-discovery/runtime/provider/openai"
)

// renderings are the configurations whose request bodies are golden.
var renderings = []struct {
	name string
	opts []Option
}{
	{"chat", nil},
	{"compatible", []Option{WithMaxTokens()}},
}

// TestDiscoverCallAnswer runs the whole loop, compares every request body
// with testdata/ (the first request with the discovery function, the
// discovery result, the call of a discovered tool) and checks the neutral
// history the completions decode to.
func TestDiscoverCallAnswer(t *testing.T) {
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			api := newFakeAPI(t, loopReplies()...)
			c := api.client(rc.opts...)
			history := openaitest.RunLoop(t, c, chatModel, openaitest.Catalog(t), openaitest.Start())
			for i := range 3 {
				golden.JSON(t, filepath.Join("testdata", fmt.Sprintf("%s_step%d.json", rc.name, i+1)), api.Body(i))
			}
			if diff := cmp.Diff(openaitest.WantHistory(), history); diff != "" {
				t.Fatalf("history (-want +got):\n%s", diff)
			}
		})
	}
}

// requestShape is the part of a request body that prompt caching sees.
type requestShape struct {
	Tools    json.RawMessage   `json:"tools"`
	Messages []json.RawMessage `json:"messages"`
}

// TestPromptCacheStability checks that every earlier message renders to the
// same bytes in every later request, and that the declarations change only
// on the request after a discovery.
func TestPromptCacheStability(t *testing.T) {
	api := newFakeAPI(t, loopReplies()...)
	openaitest.RunLoop(t, api.client(), chatModel, openaitest.Catalog(t), openaitest.Start())
	var prev requestShape
	for i := range 3 {
		var cur requestShape
		if err := json.Unmarshal(api.Body(i), &cur); err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			for k := range prev.Messages {
				if k >= len(cur.Messages) || !bytes.Equal(prev.Messages[k], cur.Messages[k]) {
					t.Errorf("message %d changed between requests %d and %d", k, i, i+1)
				}
			}
			changed := !bytes.Equal(prev.Tools, cur.Tools)
			if want := i == 1; changed != want {
				t.Errorf("declarations of request %d changed = %v, want %v", i+1, changed, want)
			}
		}
		prev = cur
	}
}

// TestContinueFromResponses continues on Chat Completions a history that the
// Responses adapter started natively: its native records are ignored and
// the discovery renders emulated.
func TestContinueFromResponses(t *testing.T) {
	cat := openaitest.Catalog(t)
	native := openaitest.New(t, "/responses",
		openaitest.Reply{Body: responsesJSON(`{"type":"tool_search_call","id":"tsc_1","call_id":"call_s1","execution":"client","status":"completed","arguments":{"query":"look up a record"}}`)},
		openaitest.Reply{Body: responsesJSON(`{"type":"function_call","id":"fc_1","call_id":"call_f1","namespace":"records","name":"lookup","arguments":"{\"id\":\"r1\"}","status":"completed"}`)},
		openaitest.Reply{Body: responsesJSON(`{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Record r1 is late.","annotations":[]}]}`)},
	)
	rc := openai.New(openai.WithBaseURL(native.URL()), openai.WithAPIKey("k"))
	history := openaitest.RunLoop(t, rc, "gpt-5.4", cat, openaitest.Start())
	if diff := cmp.Diff(openaitest.WantHistory(), openaitest.StripMeta(history)); diff != "" {
		t.Fatalf("responses history (-want +got):\n%s", diff)
	}
	api := newFakeAPI(t, openaitest.Reply{Body: completionJSON(answerMessage, "stop")})
	c := api.client()
	history = append(history, model.UserMessage("And r2?"))
	resp, err := c.Complete(t.Context(), openaitest.Prepare(t, c, chatModel, history, cat))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Message.Text() != "Record r1 is late." {
		t.Fatalf("answer %q", resp.Message.Text())
	}
	body := string(api.Body(0))
	for _, native := range []string{"tool_search_call", "tool_search_output", "namespace"} {
		if strings.Contains(body, native) {
			t.Errorf("chat request holds native %q:\n%s", native, body)
		}
	}
	for _, want := range []string{`"name":"tool_search"`, `"name":"records_lookup"`, `Found 2 tools`} {
		if !strings.Contains(body, want) {
			t.Errorf("chat request lacks %s:\n%s", want, body)
		}
	}
}

func responsesJSON(item string) string {
	return `{"id":"resp_1","object":"response","status":"completed","model":"gpt-5.4","output":[` + item + `],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2}}`
}
