package mcp

// Transports say how to reach a server. Each connection of a session gets a
// fresh SDK transport from its Transport, so a session whose server went
// away connects again on its next use: a command is started anew, an HTTP
// endpoint gets a new MCP session, an in-memory server a new pair of pipes.

import (
	"context"
	"net/http"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transport makes the SDK transport of each connection to one server.
type Transport interface {
	// NewTransport returns the transport of one new connection.
	NewTransport(ctx context.Context) (sdk.Transport, error)
}

// CommandTransport runs a server as a child process and speaks to it over
// its standard input and output (the MCP stdio transport). Each connection
// starts the command again.
type CommandTransport struct {
	// Path is the program to run, looked up in PATH when it has no slash.
	Path string
	// Args are the program's arguments.
	Args []string
	// Env, when set, is the whole environment of the process; otherwise it
	// inherits this process's environment.
	Env []string
	// Dir, when set, is the process's working directory.
	Dir string
	// TerminateAfter is how long closing a connection waits for the
	// process to exit after its standard input closed, before it is
	// terminated; 0 means the SDK's default (5 seconds).
	TerminateAfter time.Duration
}

// Command returns the stdio transport of the program path run with args.
func Command(path string, args ...string) *CommandTransport {
	return &CommandTransport{Path: path, Args: slices.Clone(args)}
}

// NewTransport starts nothing yet: the process starts when the session
// connects. The process is not bound to ctx, which is the context of one
// call, not of the session. Each line the process writes is bounded by
// DefaultLimits.MaxMessageBytes; a Session bounds it by its own Limits.
func (c *CommandTransport) NewTransport(ctx context.Context) (sdk.Transport, error) {
	return c.newCappedTransport(ctx, &messageCap{limit: DefaultLimits.MaxMessageBytes})
}

// DefaultStreamRetries is how many times in a row an HTTP transport resumes
// an SSE stream that ended without progress (HTTPTransport.StreamRetries).
const DefaultStreamRetries = 3

// HTTPTransport speaks MCP's streamable HTTP transport to one endpoint.
//
// A server may end the SSE stream of a call before the call's response
// (the 2025-11-25 transport: after a priming event that carries an event id,
// and optionally a retry field saying when to come back). The transport
// then resumes it: it waits the server's retry delay (or a backoff of about
// a second, growing), sends a GET with the Last-Event-ID of the last event
// it read, and reads the events the server replays from there. A stream
// that ends with no event id cannot be resumed and fails the call. Only
// resumptions without a new event count against StreamRetries; when they
// are spent the connection fails, and the session's next use connects
// again.
type HTTPTransport struct {
	// URL is the server's MCP endpoint.
	URL string
	// Client sends the requests; its transport is where authentication
	// (a bearer token, mutual TLS) belongs. Nil means http.DefaultClient.
	Client *http.Client
	// StreamRetries bounds the resumptions of a stream in a row without a
	// new event: 0 means DefaultStreamRetries, a negative value never
	// resumes.
	StreamRetries int
}

// HTTP returns the streamable HTTP transport of the endpoint url, sending
// through client (nil: http.DefaultClient).
func HTTP(url string, client *http.Client) *HTTPTransport {
	return &HTTPTransport{URL: url, Client: client}
}

// NewTransport returns a transport that opens a new MCP session at the
// endpoint. A Session bounds each response body and SSE event by its
// Limits.MaxMessageBytes. It resumes interrupted streams of that session (the SDK
// transport's retries, bounded by StreamRetries); opening a new session
// after a failed one is the Session's job.
func (h *HTTPTransport) NewTransport(context.Context) (sdk.Transport, error) {
	retries := h.StreamRetries
	switch {
	case retries == 0:
		retries = DefaultStreamRetries
	case retries < 0:
		retries = -1 // the SDK's "never"
	}
	return &sdk.StreamableClientTransport{Endpoint: h.URL, HTTPClient: h.Client, MaxRetries: retries}, nil
}

// InMemoryTransport connects to an SDK server in this process, through a
// new pair of in-memory pipes per connection.
type InMemoryTransport struct {
	// Server is the server connected to.
	Server *sdk.Server
}

// InMemory returns the in-memory transport of server.
func InMemory(server *sdk.Server) *InMemoryTransport { return &InMemoryTransport{Server: server} }

// NewTransport connects the server to one end of a new pipe pair and
// returns the other end.
func (m *InMemoryTransport) NewTransport(ctx context.Context) (sdk.Transport, error) {
	client, server := sdk.NewInMemoryTransports()
	if _, err := m.Server.Connect(ctx, server, nil); err != nil {
		return nil, err
	}
	return client, nil
}
