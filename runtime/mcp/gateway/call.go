package gateway

// Forwarded calls: a tool the session may call, its arguments validated
// against its input schema, sent upstream under the server's own name.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// call calls the tool the session knows as name. Every failure is a result
// with isError that names the tool and, once the tool is known, its server.
// The progress notifications of the upstream's call go to the client with
// the progress token of req, and its log messages to the client sessions
// with a call of the upstream under way.
func (s *clientSession) call(ctx context.Context, req *sdk.CallToolRequest, name string, args json.RawMessage) *sdk.CallToolResult {
	e := s.g.current().byName[name]
	if e == nil || !s.reachable(e) {
		return errorResult(fmt.Sprintf("no tool %q: search for tools with %s and call a tool it found", name, "tool_search"))
	}
	fail := func(detail string) *sdk.CallToolResult {
		return errorResult((&mcp.CallError{Server: e.up.cfg.Name, Tool: e.mcpName, Kind: mcp.CallInvalid, Detail: detail}).Error())
	}
	spec, err := e.spec()
	if err != nil {
		return fail("the tool's input schema cannot be compiled: " + err.Error())
	}
	args = arguments(args)
	if _, err := spec.Payload.Decode(args); err != nil {
		return fail("invalid arguments: " + err.Error())
	}
	if e.up.cfg.Registry != nil {
		return e.up.callRegistry(ctx, e, args)
	}
	session := e.up.started()
	if session == nil {
		// The gateway closed the upstream.
		return errorResult(fmt.Sprintf("mcp server %q tool %q: the server is not running", e.up.cfg.Name, e.mcpName))
	}
	defer e.up.calling(ctx, req.Session)()
	o := mcp.CallOptions{LogLevel: "debug"} // the client's session filters what it receives
	if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
		o.Progress = func(p *sdk.ProgressNotificationParams) {
			// The client's token in place of the gateway's; a client that
			// went away misses the notification, nothing else.
			_ = req.Session.NotifyProgress(context.WithoutCancel(ctx), &sdk.ProgressNotificationParams{
				ProgressToken: token, Progress: p.Progress, Total: p.Total, Message: p.Message,
			})
		}
	}
	res, err := session.CallWith(ctx, e.mcpName, args, o)
	if err != nil {
		var cerr *mcp.CallError
		if errors.As(err, &cerr) {
			return errorResult(cerr.ModelMessage())
		}
		return errorResult(fmt.Sprintf("mcp server %q tool %q: %v", e.up.cfg.Name, e.mcpName, err))
	}
	return res
}

// errorResult is a tool result with isError and text.
func errorResult(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// modelText is what the model reads of an upstream that could not be
// started or read: the server's name and, for a list the gateway refused
// or that differs from the design's declaration, why; never a command line
// or an address. A registry says whether it lacks the toolset or holds it
// at another version.
func (u *upstream) modelText(err error) string {
	if u.cfg.Registry != nil {
		return registryText(err, u.cfg.Version)
	}
	if errors.Is(err, mcp.ErrCatalog) || errors.Is(err, mcp.ErrLimit) || errors.Is(err, mcp.ErrDeclaration) {
		return err.Error()
	}
	return "the server cannot be started or read; the next search tries again"
}
