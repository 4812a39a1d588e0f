package gateway

import (
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/google/go-cmp/cmp"
)

func weatherServers() []Upstream {
	return []Upstream{
		inMemory("weather", fakeServer("weather",
			fakeTool{"get_forecast", "Get the weather forecast for a city."},
			fakeTool{"get_alerts", "Get the weather alerts of a region."})),
		inMemory("notes", fakeServer("notes",
			fakeTool{"create_note", "Create a note with a title and a body."},
			fakeTool{"delete_note", "Delete a note."})),
	}
}

// TestSessionWalk is the walk a model makes in ModeList: it lists
// tool_search only, searches, receives list_changed, lists the found tool
// and calls it.
func TestSessionWalk(t *testing.T) {
	g := newGateway(t, Options{}, weatherServers()...)
	c := connect(t, g)
	if got, want := c.names(t), []string{"tool_search"}; !slices.Equal(got, want) {
		t.Fatalf("first tools/list = %v, want %v", got, want)
	}
	ans := c.search(t, map[string]any{"query": "weather forecast"})
	if len(ans.Tools) == 0 || ans.Tools[0].Name != "weather_get_forecast" {
		t.Fatalf("search found %v, want weather_get_forecast first", foundNames(ans))
	}
	if len(ans.Tools[0].InputSchema) == 0 || ans.Tools[0].Description == "" {
		t.Errorf("found tool %+v lacks its description or schema", ans.Tools[0])
	}
	c.waitChanged(t)
	if got := c.names(t); !slices.Contains(got, "weather_get_forecast") || !slices.Contains(got, "tool_search") {
		t.Fatalf("tools/list after the search = %v", got)
	}
	out, isErr := c.call(t, "weather_get_forecast", map[string]any{"text": "Paris"})
	if isErr || out != `weather/get_forecast {"text":"Paris"}` {
		t.Fatalf("call = %q (error %v)", out, isErr)
	}
}

// TestModes checks what each mode lists and how a found tool is called.
func TestModes(t *testing.T) {
	cases := []struct {
		mode       Mode
		first      []string
		afterFound bool // the found tool joins tools/list
	}{
		{ModeList, []string{"tool_search"}, true},
		{ModeCall, []string{"call_tool", "tool_search"}, false},
		{ModeBoth, []string{"call_tool", "tool_search"}, true},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			g := newGateway(t, Options{Mode: tc.mode}, weatherServers()...)
			c := connect(t, g)
			if diff := cmp.Diff(tc.first, c.names(t)); diff != "" {
				t.Fatalf("first tools/list (-want +got):\n%s", diff)
			}
			c.search(t, map[string]any{"names": []string{"notes_create_note"}})
			if tc.afterFound {
				c.waitChanged(t)
			}
			got := slices.Contains(c.names(t), "notes_create_note")
			if got != tc.afterFound {
				t.Errorf("found tool listed = %v, want %v", got, tc.afterFound)
			}
			if tc.mode != ModeList {
				out, isErr := c.call(t, "call_tool", map[string]any{"name": "notes_create_note", "arguments": map[string]any{"text": "x"}})
				if isErr || out != `notes/create_note {"text":"x"}` {
					t.Errorf("call_tool = %q (error %v)", out, isErr)
				}
			}
		})
	}
}

// TestCallsAreValidatedAndBound checks that a call is validated against
// the input schema before it goes upstream, and that a session calls only
// tools it found.
func TestCallsAreValidatedAndBound(t *testing.T) {
	g := newGateway(t, Options{Mode: ModeBoth}, weatherServers()...)
	c := connect(t, g)
	cases := []struct {
		name string
		args any
		want string
	}{
		{"notes_create_note", map[string]any{"text": "x"}, `no tool "notes_create_note": search for tools`},
	}
	for _, tc := range cases {
		out, isErr := c.call(t, "call_tool", map[string]any{"name": tc.name, "arguments": tc.args})
		if !isErr || !strings.Contains(out, tc.want) {
			t.Errorf("before a search: call %s = %q (error %v), want an error with %q", tc.name, out, isErr, tc.want)
		}
	}
	c.search(t, map[string]any{"names": []string{"notes_create_note"}})
	cases = []struct {
		name string
		args any
		want string
	}{
		{"notes_create_note", map[string]any{}, `mcp server "notes" tool "create_note": invalid arguments`},
		{"notes_create_note", map[string]any{"text": 3}, `mcp server "notes" tool "create_note": invalid arguments`},
		{"notes_delete_note", map[string]any{"text": "x"}, `no tool "notes_delete_note"`},
		{"notes_nope", map[string]any{}, `no tool "notes_nope"`},
	}
	for _, tc := range cases {
		out, isErr := c.call(t, "call_tool", map[string]any{"name": tc.name, "arguments": tc.args})
		if !isErr || !strings.Contains(out, tc.want) {
			t.Errorf("call %s %v = %q (error %v), want an error with %q", tc.name, tc.args, out, isErr, tc.want)
		}
	}
}

// TestSessionsKeepTheirOwnTools checks that what one session found is not
// listed by another.
func TestSessionsKeepTheirOwnTools(t *testing.T) {
	g := newGateway(t, Options{}, weatherServers()...)
	a, b := connect(t, g), connect(t, g)
	a.search(t, map[string]any{"query": "note"})
	a.waitChanged(t)
	if got := a.names(t); !slices.Contains(got, "notes_create_note") {
		t.Fatalf("session a lists %v", got)
	}
	if got := b.names(t); !slices.Equal(got, []string{"tool_search"}) {
		t.Errorf("session b lists %v, want tool_search only", got)
	}
	if out, isErr := b.call(t, "notes_create_note", map[string]any{"text": "x"}); !isErr {
		t.Errorf("session b called a tool only a found: %q", out)
	}
}

// TestUpstreamListChanged checks that an upstream's list_changed is indexed
// again: a tool the server adds is found by the next search, and a found
// tool the server removes leaves the session's list.
func TestUpstreamListChanged(t *testing.T) {
	weather := fakeServer("weather", fakeTool{"get_forecast", "Get the weather forecast for a city."})
	g := newGateway(t, Options{}, inMemory("weather", weather))
	c := connect(t, g)
	if ans := c.search(t, map[string]any{"query": "tides"}); len(ans.Tools) != 0 {
		t.Fatalf("tides found %v before the server has it", foundNames(ans))
	}
	c.search(t, map[string]any{"query": "forecast"})
	c.waitChanged(t)
	addFake(weather, "weather", fakeTool{"get_tides", "Get the tides of a harbour."})
	weather.RemoveTools("get_forecast")
	waitFor(t, func() bool {
		ans := c.search(t, map[string]any{"query": "tides"})
		return slices.Equal(foundNames(ans), []string{"weather_get_tides"})
	})
	c.waitChanged(t)
	waitFor(t, func() bool {
		got := c.names(t)
		return slices.Contains(got, "weather_get_tides") && !slices.Contains(got, "weather_get_forecast")
	})
}

// TestImmediateTools checks that immediate tools are listed from the
// start and callable without a search.
func TestImmediateTools(t *testing.T) {
	ups := weatherServers()
	ups[0].Immediate = []string{"get_alerts"}
	g := newGateway(t, Options{}, ups...)
	c := connect(t, g)
	if diff := cmp.Diff([]string{"tool_search", "weather_get_alerts"}, c.names(t)); diff != "" {
		t.Fatalf("first tools/list (-want +got):\n%s", diff)
	}
	if out, isErr := c.call(t, "weather_get_alerts", map[string]any{"text": "x"}); isErr {
		t.Fatalf("immediate call: %s", out)
	}
}

// TestCollisionAcrossServers checks that a tool of a later server that
// reaches the model under a name taken by an earlier server's tool is
// refused and named in the answer, never served under the other's name.
func TestCollisionAcrossServers(t *testing.T) {
	g := newGateway(t, Options{},
		inMemory("a_b", fakeServer("a_b", fakeTool{"c", "First tool."})),
		inMemory("a", fakeServer("a", fakeTool{"b_c", "Second tool."})))
	c := connect(t, g)
	ans := c.search(t, map[string]any{"names": []string{"a_b_c"}})
	if !slices.Equal(foundNames(ans), []string{"a_b_c"}) {
		t.Fatalf("found %v", foundNames(ans))
	}
	if len(ans.Unavailable) != 1 || ans.Unavailable[0].Server != "a" || !strings.Contains(ans.Unavailable[0].Error, "both reach the model as \"a_b_c\"") {
		t.Fatalf("unavailable = %+v, want server a's b_c refused", ans.Unavailable)
	}
	out, _ := c.call(t, "a_b_c", map[string]any{"text": "x"})
	if !strings.HasPrefix(out, "a_b/c") {
		t.Errorf("a_b_c called %q, want server a_b's tool", out)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for range 200 {
		if ok() {
			return
		}
		sleep()
	}
	t.Fatal("condition not met within 10s")
}

// TestUnavailableServer checks that a server that cannot start is named in
// the search's answer, without its command line, while the other servers'
// tools are found.
func TestUnavailableServer(t *testing.T) {
	ups := append(weatherServers(), Upstream{Name: "broken", Transport: mcp.Command("/nonexistent/secret-path/server")})
	g := newGateway(t, Options{}, ups...)
	c := connect(t, g)
	ans := c.search(t, map[string]any{"query": "forecast"})
	if !slices.Contains(foundNames(ans), "weather_get_forecast") {
		t.Errorf("found %v", foundNames(ans))
	}
	if len(ans.Unavailable) != 1 || ans.Unavailable[0].Server != "broken" || ans.Unavailable[0].Error == "" {
		t.Fatalf("unavailable = %+v, want server broken", ans.Unavailable)
	}
	if strings.Contains(ans.Unavailable[0].Error, "secret-path") {
		t.Errorf("the model reads the command line: %q", ans.Unavailable[0].Error)
	}
}
