// Command conformanceupstream is the upstream server of the conformance
// suite's run against "goa-discovery mcp gateway" (.ci/steps/mcp-gateway):
// an MCP server over stdio whose tools, served by the gateway as the
// server "test", reach the client under the names the suite's server
// scenarios call ("simple_text" is "test_simple_text"). Each tool answers
// with the content its scenario checks, and sends the log messages or
// progress notifications it checks, so the scenarios check what the
// gateway forwards.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// png is a 1x1 PNG image; wav is a WAV header with no samples.
var (
	png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")
	wav = []byte("RIFF$\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00D\xac\x00\x00\x88X\x01\x00\x02\x00\x10\x00data\x00\x00\x00\x00")
)

func main() {
	s := sdk.NewServer(&sdk.Implementation{Name: "conformance-upstream", Version: "v1"}, nil)
	resource := &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}}
	tools := []struct {
		name, description string
		content           []sdk.Content
		isError           bool
	}{
		{"simple_text", "Returns simple text content.", []sdk.Content{&sdk.TextContent{Text: "This is a simple text response for testing."}}, false},
		{"image_content", "Returns an image.", []sdk.Content{&sdk.ImageContent{Data: png, MIMEType: "image/png"}}, false},
		{"audio_content", "Returns audio.", []sdk.Content{&sdk.AudioContent{Data: wav, MIMEType: "audio/wav"}}, false},
		{"embedded_resource", "Returns an embedded resource.", []sdk.Content{resource}, false},
		{"multiple_content_types", "Returns text, an image and a resource.", []sdk.Content{
			&sdk.TextContent{Text: "Multiple content types test:"}, &sdk.ImageContent{Data: png, MIMEType: "image/png"}, resource}, false},
		{"error_handling", "Returns an error result.", []sdk.Content{&sdk.TextContent{Text: "This tool intentionally returns an error for testing"}}, true},
	}
	for _, t := range tools {
		s.AddTool(&sdk.Tool{Name: t.name, Description: t.description, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{Content: t.content, IsError: t.isError}, nil
			})
	}
	// The tools of the scenarios that check what a call sends while it
	// runs: three log messages, three progress notifications.
	s.AddTool(&sdk.Tool{Name: "tool_with_logging", Description: "Sends log messages while it runs.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			for _, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
				if err := req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "info", Data: msg}); err != nil {
					return nil, err
				}
				time.Sleep(50 * time.Millisecond)
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Tool with logging executed successfully"}}}, nil
		})
	s.AddTool(&sdk.Tool{Name: "tool_with_progress", Description: "Reports its progress while it runs.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			token := req.Params.GetProgressToken()
			for _, p := range []float64{0, 50, 100} {
				if token != nil {
					if err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: p, Total: 100}); err != nil {
						return nil, err
					}
				}
				time.Sleep(50 * time.Millisecond)
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "Progress test completed"}}}, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "conformanceupstream:", err)
		os.Exit(1)
	}
}
