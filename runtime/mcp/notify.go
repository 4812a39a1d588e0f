package mcp

// What a server sends besides the answers to requests: tools/list_changed,
// log messages, and the progress of a call. A Session counts list changes
// for its Source; WithNotifications hands them, and log messages, to the
// application too (the gateway re-indexes a list that changed and forwards
// log messages to its clients), and CallWith routes the progress
// notifications of one call to its caller.

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Notifications receive what a server sends besides the answers to
// requests. Each function is called on the connection's reading goroutine:
// it must return quickly.
type Notifications struct {
	// ToolListChanged, when set, is called after each
	// notifications/tools/list_changed.
	ToolListChanged func()
	// Log, when set, receives each notifications/message. The session then
	// asks a server that declares logging for every level (logging/setLevel
	// "debug") at each connection; a server that refuses sends none.
	Log func(*sdk.LoggingMessageParams)
}

// WithNotifications hands the server's notifications to n.
func WithNotifications(n Notifications) Option { return func(s *Session) { s.notify = n } }

// clientOptions are the SDK client's handlers of the session.
func (s *Session) clientOptions() *sdk.ClientOptions {
	opts := &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			s.changes.Add(1)
			if f := s.notify.ToolListChanged; f != nil {
				f()
			}
		},
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			s.progress.route(req.Params)
		},
	}
	if f := s.notify.Log; f != nil {
		opts.LoggingMessageHandler = func(_ context.Context, req *sdk.LoggingMessageRequest) { f(req.Params) }
	}
	return opts
}

// subscribeLogs asks the server of cs for its log messages when the
// session forwards them and the server declares logging.
func (s *Session) subscribeLogs(ctx context.Context, cs *sdk.ClientSession) {
	if s.notify.Log == nil {
		return
	}
	res := cs.InitializeResult()
	if res == nil || res.Capabilities == nil || res.Capabilities.Logging == nil {
		return
	}
	// A server that refuses the level sends no log message: there is
	// nothing else to lose, and its tools work as before.
	_ = cs.SetLoggingLevel(ctx, &sdk.SetLoggingLevelParams{Level: "debug"})
}

// CallOptions are what a call carries besides its arguments.
type CallOptions struct {
	// Progress, when set, receives each notifications/progress the server
	// sends for the call, in the server's order; the call carries a
	// progress token of the session's own. Notifications the server sent
	// just before its result may arrive just after the call returned.
	Progress func(*sdk.ProgressNotificationParams)
	// LogLevel, when set, asks the server for the call's log messages of
	// that level and above (the request's _meta, protocol 2026-07-28 and
	// later; an older server takes the level of logging/setLevel, sent at
	// each connection when the session forwards log messages).
	LogLevel sdk.LoggingLevel
}

// CallWith is Call with the options o.
func (s *Session) CallWith(ctx context.Context, name string, arguments json.RawMessage, o CallOptions) (*sdk.CallToolResult, error) {
	meta := sdk.Meta{}
	if o.Progress != nil {
		token := s.progress.add(s.server, o.Progress)
		defer s.progress.removeLater(token)
		meta["progressToken"] = token
	}
	if o.LogLevel != "" {
		meta[sdk.MetaKeyLogLevel] = o.LogLevel
	}
	return s.call(ctx, name, arguments, meta)
}

// progressRoutes maps the progress tokens of calls under way to their
// callers.
type progressRoutes struct {
	next   atomic.Uint64
	routes sync.Map // token (string) → func(*sdk.ProgressNotificationParams)
}

func (p *progressRoutes) add(server string, f func(*sdk.ProgressNotificationParams)) string {
	token := fmt.Sprintf("%s-%d", server, p.next.Add(1))
	p.routes.Store(token, f)
	return token
}

// progressDrain is how long a call's progress route outlives the call.
// The SDK hands a connection's notifications to their handlers in order,
// but after it read on past them and delivered the call's response: the
// notifications a server sent before its result reach their route just
// after the call returned.
const progressDrain = time.Second

// removeLater forgets a route once the notifications sent before the
// call's result have been handled.
func (p *progressRoutes) removeLater(token string) {
	time.AfterFunc(progressDrain, func() { p.routes.Delete(token) })
}

// route hands a notification to the call whose token it carries; one of a
// token no call under way has is dropped, as the protocol allows.
func (p *progressRoutes) route(params *sdk.ProgressNotificationParams) {
	token, ok := params.ProgressToken.(string)
	if !ok {
		return
	}
	if f, ok := p.routes.Load(token); ok {
		f.(func(*sdk.ProgressNotificationParams))(params)
	}
}
