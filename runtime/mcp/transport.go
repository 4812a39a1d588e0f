package mcp

// Transports say how to reach a server. Each connection of a session gets a
// fresh SDK transport from its Transport, so a session whose server went
// away connects again on its next use: a command is started anew, an HTTP
// endpoint gets a new MCP session, an in-memory server a new pair of pipes.

import (
	"context"
	"net/http"
	"os/exec"
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

// NewTransport starts nothing yet: the SDK starts the process when the
// session connects. The process is not bound to ctx, which is the context
// of one call, not of the session.
func (c *CommandTransport) NewTransport(context.Context) (sdk.Transport, error) {
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = slices.Clone(c.Env)
	cmd.Dir = c.Dir
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: c.TerminateAfter}, nil
}

// HTTPTransport speaks MCP's streamable HTTP transport to one endpoint.
type HTTPTransport struct {
	// URL is the server's MCP endpoint.
	URL string
	// Client sends the requests; its transport is where authentication
	// (a bearer token, mutual TLS) belongs. Nil means http.DefaultClient.
	Client *http.Client
}

// HTTP returns the streamable HTTP transport of the endpoint url, sending
// through client (nil: http.DefaultClient).
func HTTP(url string, client *http.Client) *HTTPTransport {
	return &HTTPTransport{URL: url, Client: client}
}

// NewTransport returns a transport that opens a new MCP session at the
// endpoint. Reconnecting is the session's job, so the SDK transport does
// not retry on its own.
func (h *HTTPTransport) NewTransport(context.Context) (sdk.Transport, error) {
	return &sdk.StreamableClientTransport{Endpoint: h.URL, HTTPClient: h.Client, MaxRetries: -1}, nil
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
