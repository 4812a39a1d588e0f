package mcp_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNotifications checks what a session hands over besides answers: a
// list change, the log messages of a call at the level the call asks for,
// and the progress of a call made with CallWith, under the session's own
// token.
func TestNotifications(t *testing.T) {
	server := sdk.NewServer(&sdk.Implementation{Name: "notifier", Version: "v1"}, nil)
	var seenToken any
	server.AddTool(&sdk.Tool{Name: "work", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			seenToken = req.Params.GetProgressToken()
			for _, level := range []sdk.LoggingLevel{"debug", "warning"} {
				if err := req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: level, Data: string(level)}); err != nil {
					return nil, err
				}
			}
			if seenToken != nil {
				if err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: seenToken, Progress: 1, Total: 1}); err != nil {
					return nil, err
				}
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
		})
	var mu sync.Mutex
	var logs []string
	changed := make(chan struct{}, 4)
	ctx := context.Background()
	s, err := mcp.Connect(ctx, "notifier", mcp.InMemory(server), mcp.WithNotifications(mcp.Notifications{
		ToolListChanged: func() { changed <- struct{}{} },
		Log: func(p *sdk.LoggingMessageParams) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, p.Data.(string))
		},
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	progress := make(chan *sdk.ProgressNotificationParams, 4)
	if _, err := s.CallWith(ctx, "work", nil, mcp.CallOptions{
		LogLevel: "warning",
		Progress: func(p *sdk.ProgressNotificationParams) { progress <- p },
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-progress:
		if p.ProgressToken != seenToken || p.Progress != 1 {
			t.Errorf("progress %+v, want the call's token %v", p, seenToken)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no progress notification")
	}
	if _, ok := seenToken.(string); !ok {
		t.Errorf("the server saw progress token %v, want one of the session's own", seenToken)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := append([]string(nil), logs...)
		mu.Unlock()
		if len(got) == 1 && got[0] == "warning" {
			break
		}
		if len(got) > 1 || time.Now().After(deadline) {
			t.Fatalf("log messages %v, want only the warning", got)
		}
		time.Sleep(10 * time.Millisecond)
	}

	// A plain Call carries no progress token.
	if _, err := s.Call(ctx, "work", nil); err != nil {
		t.Fatal(err)
	}
	if seenToken != nil {
		t.Errorf("Call sent progress token %v", seenToken)
	}

	server.AddTool(&sdk.Tool{Name: "more", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no ToolListChanged after the server's list changed")
	}
}
