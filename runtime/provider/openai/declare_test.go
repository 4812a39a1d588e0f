package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// loadedTools returns the names of the functions each tool_search_output
// item of a request body loads, and whether a tool_search tool is declared.
func loadedTools(t *testing.T, body []byte) ([][]string, bool) {
	t.Helper()
	var b struct {
		Input []struct {
			Type  string `json:"type"`
			Tools []struct {
				Name  string `json:"name"`
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			} `json:"tools"`
		} `json:"input"`
		Tools []struct {
			Type string `json:"type"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	var loaded [][]string
	for _, it := range b.Input {
		if it.Type != "tool_search_output" {
			continue
		}
		var names []string
		for _, ns := range it.Tools {
			for _, f := range ns.Tools {
				names = append(names, ns.Name+"."+f.Name)
			}
		}
		loaded = append(loaded, names)
	}
	search := false
	for _, tl := range b.Tools {
		search = search || tl.Type == "tool_search"
	}
	return loaded, search
}

// TestNativeFollowsDeclarations checks that native tool_search_output items
// load exactly what the request declares: discovery turned off keeps the
// loaded tools but declares no tool_search; a structured-output request,
// or a run whose policy withholds a tool, loads nothing it does not
// declare; a newer snapshot of a name replaces the older one.
func TestNativeFollowsDeclarations(t *testing.T) {
	cat := testCatalog(t)
	api := newFakeAPI(t, loopReplies(true)...)
	c := api.client()
	history := append(runLoop(t, c, nativeModel, cat, start()), model.UserMessage("Next?"))

	newer := model.ToolSnapshot{Name: "records_lookup", Description: "Look up a record (v2)", Parameters: json.RawMessage(idParams), Namespace: "records"}
	refreshed := append(append([]model.Message(nil), history...),
		model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "d2", Names: []string{"records_lookup"}})),
		model.DiscoveryMessage(model.DiscoveryResult{CallID: "d2", Tools: []model.ToolSnapshot{newer}}),
		model.UserMessage("Again?"))

	build := func(h []model.Message, edit func(*model.Request), cat *discovery.Catalog) *model.Request {
		req := &model.Request{Model: nativeModel, Messages: h, Tools: openaitest.AppTools(), Discovery: model.Discovery{Enabled: true}, MaxOutputTokens: 512}
		edit(req)
		if _, err := discovery.Prepare(req, c.Capabilities(nativeModel), cat); err != nil {
			t.Fatal(err)
		}
		return req
	}
	onlySearch, err := discovery.NewCatalog([]discovery.Entry{{Snapshot: model.ToolSnapshot{
		Name: "records_search", Description: "Search customer records by keywords",
		Parameters: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`), Namespace: "records"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		req    *model.Request
		loaded [][]string
		search bool
	}{
		{"discovery on", build(history, func(*model.Request) {}, cat), [][]string{{"records.lookup", "records.search"}}, true},
		{"discovery off", build(history, func(r *model.Request) { r.Discovery = model.Discovery{} }, nil), [][]string{{"records.lookup", "records.search"}}, false},
		{"structured output", build(history, func(r *model.Request) {
			r.Discovery = model.Discovery{}
			r.ResponseFormat = &model.ResponseFormat{Name: "answer", Schema: json.RawMessage(`{"type":"object"}`)}
		}, nil), [][]string{nil}, false},
		{"withheld by policy", build(history, func(*model.Request) {}, onlySearch), [][]string{{"records.search"}}, true},
		{"refreshed snapshot", build(refreshed, func(*model.Request) {}, nil), [][]string{{"records.search"}, {"records.lookup"}}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := renderBody(t, c, tc.req)
			loaded, search := loadedTools(t, body)
			if search != tc.search || len(loaded) != len(tc.loaded) {
				t.Fatalf("tool_search declared %v, loads %v; want %v, %v", search, loaded, tc.search, tc.loaded)
			}
			for i := range loaded {
				if strings.Join(loaded[i], ",") != strings.Join(tc.loaded[i], ",") {
					t.Errorf("output %d loads %v, want %v", i, loaded[i], tc.loaded[i])
				}
			}
			if tc.name == "refreshed snapshot" && !strings.Contains(string(body), "Look up a record (v2)") {
				t.Errorf("the newer snapshot is not loaded:\n%s", body)
			}
		})
	}
}
