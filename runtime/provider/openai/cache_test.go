package openai

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// requestShape is the part of a request body that prompt caching sees.
type requestShape struct {
	Tools json.RawMessage   `json:"tools"`
	Input []json.RawMessage `json:"input"`
}

func shapeOf(t *testing.T, body []byte) requestShape {
	t.Helper()
	var s requestShape
	if err := json.Unmarshal(body, &s); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	return s
}

// TestPromptCacheStability checks, across the steps of a run, that every
// earlier input item renders to the same bytes in every later request and
// that the declarations never change in native mode and change in emulated
// mode only when a step discovered something new.
func TestPromptCacheStability(t *testing.T) {
	for _, rc := range renderings {
		t.Run(rc.name, func(t *testing.T) {
			replies := loopReplies(rc.native)
			api := newFakeAPI(t, replies...)
			runLoop(t, api.client(rc.opts...), rc.model, testCatalog(t), start())
			var prev requestShape
			for i := range 3 {
				cur := shapeOf(t, api.body(i))
				if i == 0 {
					prev = cur
					continue
				}
				if len(cur.Input) <= len(prev.Input) {
					t.Fatalf("request %d has %d input items, request %d had %d", i+1, len(cur.Input), i, len(prev.Input))
				}
				for k := range prev.Input {
					if !bytes.Equal(prev.Input[k], cur.Input[k]) {
						t.Errorf("input item %d changed between requests %d and %d:\n%s\n%s", k, i, i+1, prev.Input[k], cur.Input[k])
					}
				}
				// Only step 2 follows a discovery.
				changed := !bytes.Equal(prev.Tools, cur.Tools)
				if want := !rc.native && i == 1; changed != want {
					t.Errorf("declarations of request %d changed = %v, want %v", i+1, changed, want)
				}
				prev = cur
			}
		})
	}
}

// TestHistoryReload stores a native history as JSON, reloads it and checks
// that the next request renders to the same bytes: native records survive in
// Meta and go back unchanged. Records of another provider are ignored.
func TestHistoryReload(t *testing.T) {
	api := newFakeAPI(t, loopReplies(true)...)
	c := api.client()
	cat := testCatalog(t)
	history := append(runLoop(t, c, nativeModel, cat, start()), model.UserMessage("Thanks."))
	raw, err := json.Marshal(history)
	if err != nil {
		t.Fatal(err)
	}
	var reloaded []model.Message
	if err := json.Unmarshal(raw, &reloaded); err != nil {
		t.Fatal(err)
	}
	foreign := append([]model.Message(nil), reloaded...)
	for i := range foreign {
		foreign[i].Meta = map[string]json.RawMessage{"anthropic": json.RawMessage(`{"type":"server_tool_use"}`)}
		if m := reloaded[i].Meta[MetaKey]; m != nil {
			foreign[i].Meta[MetaKey] = m
		}
	}
	want := renderBody(t, c, prepare(t, c, nativeModel, history, cat))
	for name, h := range map[string][]model.Message{"reloaded": reloaded, "foreign meta": foreign} {
		if got := renderBody(t, c, prepare(t, c, nativeModel, h, cat)); !bytes.Equal(want, got) {
			t.Errorf("%s history renders differently:\n%s\n%s", name, want, got)
		}
	}
	if !bytes.Contains(want, []byte(`"id":"tsc_1"`)) || !bytes.Contains(want, []byte(`"id":"rs_1"`)) {
		t.Errorf("native records were not sent back:\n%s", want)
	}
}

// renderBody returns the JSON body the SDK sends for req.
func renderBody(t testing.TB, c *Client, req *model.Request) []byte {
	t.Helper()
	_, params, err := c.render(req)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	b, err := json.Marshal(params)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSwitchRendering continues a native history emulated and an emulated
// history natively, on one adapter, as a history moves between models.
func TestSwitchRendering(t *testing.T) {
	cat := testCatalog(t)
	nativeAPI := newFakeAPI(t, loopReplies(true)...)
	nativeHistory := runLoop(t, nativeAPI.client(), nativeModel, cat, start())
	emuAPI := newFakeAPI(t, loopReplies(false)...)
	emuHistory := runLoop(t, emuAPI.client(), emulatedModel, cat, start())

	c := New()
	next := model.UserMessage("And record r2?")
	emulated := string(renderBody(t, c, prepare(t, c, emulatedModel, append(nativeHistory, next), cat)))
	for _, native := range []string{"tool_search_call", "tool_search_output", "namespace", "rs_1"} {
		if strings.Contains(emulated, native) {
			t.Errorf("emulated rendering of a native history holds %q:\n%s", native, emulated)
		}
	}
	if !strings.Contains(emulated, `"name":"records_lookup"`) {
		t.Errorf("emulated rendering does not call records_lookup by its flat name:\n%s", emulated)
	}
	native := string(renderBody(t, c, prepare(t, c, nativeModel, append(emuHistory, next), cat)))
	for _, want := range []string{`"type":"tool_search_call"`, `"type":"tool_search_output"`, `"name":"lookup","namespace":"records"`} {
		if !strings.Contains(native, want) {
			t.Errorf("native rendering of an emulated history lacks %s:\n%s", want, native)
		}
	}
}
