package gateway

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestUpstreamListChangePushed checks that a change of an upstream's list
// reaches the sessions whose tools/list it changes without a search: the
// session that found a tool the server then removes receives list_changed
// and no longer lists or calls it; a session that found nothing of the
// server is not told, and a tool the server adds is found by the next
// search.
func TestUpstreamListChangePushed(t *testing.T) {
	weather := fakeServer("weather",
		fakeTool{"get_forecast", "Get the weather forecast for a city."},
		fakeTool{"get_alerts", "Get the weather alerts of a region."})
	// ListInterval is long: only the server's notification can make the
	// gateway read the list again before a search.
	g := newGateway(t, Options{ListInterval: time.Hour}, inMemory("weather", weather))
	finder, other := connect(t, g), connect(t, g)
	finder.search(t, map[string]any{"names": []string{"weather_get_alerts"}})
	finder.waitChanged(t)
	if !slices.Contains(finder.names(t), "weather_get_alerts") {
		t.Fatal("the found tool is not listed")
	}
	other.names(t) // registered, with nothing found

	weather.RemoveTools("get_alerts")
	finder.waitChanged(t)
	if got := finder.names(t); slices.Contains(got, "weather_get_alerts") {
		t.Fatalf("tools/list after the server removed the tool = %v", got)
	}
	if out, isErr := finder.call(t, "weather_get_alerts", map[string]any{"text": "x"}); !isErr {
		t.Fatalf("call of the removed tool = %q, want an error", out)
	}
	select {
	case <-other.changed:
		t.Error("a session whose list did not change received list_changed")
	case <-time.After(200 * time.Millisecond):
	}

	// A changed description reaches the session that lists the tool.
	finder.search(t, map[string]any{"names": []string{"weather_get_forecast"}})
	finder.waitChanged(t)
	addFake(weather, "weather", fakeTool{"get_forecast", "Get the forecast of the next ten days."})
	finder.waitChanged(t)
	res, err := finder.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Tools, func(tl *sdk.Tool) bool { return tl.Name == "weather_get_forecast" })
	if i < 0 || !strings.Contains(res.Tools[i].Description, "ten days") {
		t.Fatalf("tools/list after the description changed = %+v", res.Tools)
	}
	addFake(weather, "weather", fakeTool{"get_radar", "Get the rain radar image."})
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Contains(foundNames(other.search(t, map[string]any{"query": "rain radar"})), "weather_get_radar") {
		if time.Now().After(deadline) {
			t.Fatal("a search never found the added tool")
		}
		sleep()
	}
}

// slowServer is an upstream whose tool "work" sends two progress
// notifications and a log message before it answers.
func slowServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "v1"}, &sdk.ServerOptions{Capabilities: &sdk.ServerCapabilities{Logging: &sdk.LoggingCapabilities{}}})
	s.AddTool(&sdk.Tool{Name: "work", Description: "Do a long piece of work.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			if err := req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Logger: "worker", Data: "starting"}); err != nil {
				return nil, err
			}
			if token := req.Params.GetProgressToken(); token != nil {
				for i := 1; i <= 2; i++ {
					if err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(i), Total: 2, Message: "step"}); err != nil {
						return nil, err
					}
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
		})
	return s
}

// TestForwardedNotifications checks that the progress notifications of a
// forwarded call reach the client under the client's progress token, and
// the server's log messages reach it under the server's name, for a call
// by the tool's name and through call_tool.
func TestForwardedNotifications(t *testing.T) {
	for _, through := range []string{"name", "call_tool"} {
		t.Run(through, func(t *testing.T) {
			g := newGateway(t, Options{Mode: ModeBoth}, Upstream{Name: "slow", Transport: inMemory("slow", slowServer()).Transport, Immediate: []string{"work"}})
			var mu sync.Mutex
			var progress []sdk.ProgressNotificationParams
			var logs []sdk.LoggingMessageParams
			ct, st := sdk.NewInMemoryTransports()
			if _, err := g.NewServer().Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			cl := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v1"}, &sdk.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
					mu.Lock()
					defer mu.Unlock()
					progress = append(progress, *req.Params)
				},
				LoggingMessageHandler: func(_ context.Context, req *sdk.LoggingMessageRequest) {
					mu.Lock()
					defer mu.Unlock()
					logs = append(logs, *req.Params)
				},
			})
			cs, err := cl.Connect(context.Background(), ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if err := cs.SetLoggingLevel(context.Background(), &sdk.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatal(err)
			}
			params := &sdk.CallToolParams{Name: "slow_work", Arguments: map[string]any{}}
			if through == "call_tool" {
				params = &sdk.CallToolParams{Name: "call_tool", Arguments: map[string]any{"name": "slow_work", "arguments": map[string]any{}}}
			}
			params.SetProgressToken("client-token")
			// The level of a client of protocol 2026-07-28 and later.
			params.Meta[sdk.MetaKeyLogLevel] = "info"
			res, err := cs.CallTool(context.Background(), params)
			if err != nil || res.IsError || text(res) != "done" {
				t.Fatalf("call = %+v, %v", res, err)
			}
			deadline := time.Now().Add(5 * time.Second)
			for {
				mu.Lock()
				n, l := len(progress), len(logs)
				mu.Unlock()
				if n == 2 && l == 1 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("received %d progress notifications and %d log messages, want 2 and 1", n, l)
				}
				sleep()
			}
			mu.Lock()
			defer mu.Unlock()
			for i, p := range progress {
				if p.ProgressToken != "client-token" || p.Progress != float64(i+1) || p.Total != 2 || p.Message != "step" {
					t.Errorf("progress %d = %+v, want the client's token, %d of 2", i, p, i+1)
				}
			}
			if logs[0].Logger != "slow/worker" || logs[0].Data != "starting" || logs[0].Level != "info" {
				t.Errorf("log = %+v, want logger slow/worker, info, starting", logs[0])
			}
		})
	}
}
