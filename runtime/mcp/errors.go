package mcp

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// Sentinel errors that callers branch on with errors.Is.
var (
	// ErrDeclaration is matched by every *MismatchError: a declared
	// toolset that the server does not serve as declared.
	ErrDeclaration = errors.New("mcp: declared toolset does not match the server")
	// ErrLimit is matched by every *LimitError: a server sent more than
	// the session's Limits allow.
	ErrLimit = errors.New("mcp: server exceeded a limit")
	// ErrCall is matched by every *CallError: a tool call that did not
	// produce a valid result.
	ErrCall = errors.New("mcp: tool call failed")
	// ErrCatalog is wrapped when a server's tool list cannot become a
	// catalog: a tool without a valid name or schema, two tools with one
	// name, or names that collide once made portable.
	ErrCatalog = errors.New("mcp: invalid tool list")
	// ErrWrongServer is matched by every *ServerError: a toolset bound to
	// a session of another server than the one the design names.
	ErrWrongServer = errors.New("mcp: session of another server")
)

// ServerError is a toolset of the design bound to a session that is not of
// the design's server for it: the generated Register of a toolset package
// refuses such a session (CheckServer) before anything is registered.
type ServerError struct {
	// Toolset is the toolset's name.
	Toolset string
	// Want is the server the design names for the toolset.
	Want string
	// Got is the server of the session; "" when the session is nil.
	Got string
}

// Error names the toolset and both servers.
func (e *ServerError) Error() string {
	if e.Got == "" {
		return fmt.Sprintf("register toolset %q: nil MCP session, want a session of MCP server %q", e.Toolset, e.Want)
	}
	return fmt.Sprintf("register toolset %q: session of MCP server %q, want %q", e.Toolset, e.Got, e.Want)
}

// Is reports whether target is ErrWrongServer.
func (e *ServerError) Is(target error) bool { return target == ErrWrongServer }

// CheckServer returns a *ServerError unless s is a session of server, the
// server the design names for toolset.
func CheckServer(s *Session, toolset, server string) error {
	switch {
	case s == nil:
		return &ServerError{Toolset: toolset, Want: server}
	case s.server != server:
		return &ServerError{Toolset: toolset, Want: server, Got: s.server}
	}
	return nil
}

// MismatchError says how a declared tool differs from the tool the server
// lists: missing, or with a schema that differs, compared canonically.
type MismatchError struct {
	// Server is the server's name.
	Server string
	// Tool is the declared tool.
	Tool tools.Ident
	// Missing is set when the server's catalog has no tool of that name.
	Missing bool
	// Refused, with Missing, says why the server's tool of that name was
	// left out of its catalog (Catalog.Refused).
	Refused string
	// Schema is the schema that differs: "inputSchema" or "outputSchema".
	Schema string
	// Pointer locates the first difference (a JSON Pointer into the
	// schemas' canonical form, Session.Check; "" for the whole schema).
	Pointer string
	// Declared and Served are the two values at Pointer in the canonical
	// form, as compact JSON, or "absent".
	Declared, Served string
}

// Error names the tool and the first difference.
func (e *MismatchError) Error() string {
	if e.Missing && e.Refused != "" {
		return fmt.Sprintf("mcp server %q: declared tool %q: the server's tool is left out of its catalog: %s", e.Server, e.Tool, e.Refused)
	}
	if e.Missing {
		return fmt.Sprintf("mcp server %q: declared tool %q: the server lists no tool named %q", e.Server, e.Tool, e.Tool.Tool())
	}
	at := e.Pointer
	if at == "" {
		at = "/"
	}
	return fmt.Sprintf("mcp server %q: declared tool %q: %s differs at %s: declared %s, server has %s", e.Server, e.Tool, e.Schema, at, e.Declared, e.Served)
}

// Is reports whether target is ErrDeclaration.
func (e *MismatchError) Is(target error) bool { return target == ErrDeclaration }

// LimitError reports something a server sent that is larger than the
// session's Limits allow.
type LimitError struct {
	// Server is the server's name.
	Server string
	// Tool is the MCP name of the tool concerned; empty for the list.
	Tool string
	// What is what was too large: "tools", "tools/list pages",
	// "inputSchema bytes", "inputSchema depth", "outputSchema bytes",
	// "outputSchema depth", "inputSchema nodes once references are
	// inlined", "outputSchema nodes once references are inlined",
	// "message bytes", "tools/list bytes" or "result bytes".
	What string
	// Limit is the limit; Got is what the server sent, or the count at
	// which reading stopped.
	Limit, Got int
}

// Error names the server, the tool and the limit.
func (e *LimitError) Error() string {
	tool := ""
	if e.Tool != "" {
		tool = fmt.Sprintf(" tool %q:", e.Tool)
	}
	return fmt.Sprintf("mcp server %q:%s %d %s exceed the limit of %d", e.Server, tool, e.Got, e.What, e.Limit)
}

// Is reports whether target is ErrLimit.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

// CallErrorKind says why a call failed.
type CallErrorKind string

// Kinds of call failure.
const (
	// CallToolError: the tool ran and reported an error (isError).
	CallToolError CallErrorKind = "tool_error"
	// CallRefused: the server answered the request with a protocol error.
	CallRefused CallErrorKind = "refused"
	// CallTimeout: no answer within the session's call timeout.
	CallTimeout CallErrorKind = "timeout"
	// CallUnreachable: no connection to the server could be made.
	CallUnreachable CallErrorKind = "unreachable"
	// CallConnectionLost: the connection failed during the call, for
	// example because the server exited.
	CallConnectionLost CallErrorKind = "connection_lost"
	// CallInvalid: the arguments or the result break the tool's schema,
	// or the result is larger than the limit.
	CallInvalid CallErrorKind = "invalid"
)

// CallError is a failed call. Its message is what the model reads: it
// names the server and the tool and says what happened, and carries the
// server's own words for a tool error or a refusal, credentials redacted
// (Redact), but never a transport detail of this side (the command line,
// URL or socket address the session uses); those stay in the wrapped
// cause, for the application. The server's own words may name an address
// the server itself mentions.
type CallError struct {
	// Server is the server's name.
	Server string
	// Tool is the MCP name of the tool.
	Tool string
	// Kind says what happened.
	Kind CallErrorKind
	// Detail is the server's text (a tool error, a refusal) or the
	// validation failure; empty for transport failures.
	Detail string
	// Cause is the underlying error, when there is one.
	Cause error
}

// Error describes the failure without transport details.
func (e *CallError) Error() string {
	head := fmt.Sprintf("mcp server %q tool %q", e.Server, e.Tool)
	switch e.Kind {
	case CallToolError:
		return head + " reported an error: " + Redact(e.Detail)
	case CallRefused:
		return head + ": the server refused the call: " + Redact(e.Detail)
	case CallTimeout:
		return head + ": no answer " + e.Detail + "; the next call reconnects"
	case CallUnreachable:
		return head + ": the server cannot be reached; the next call tries again"
	case CallConnectionLost:
		return head + ": the connection to the server was lost; the next call reconnects"
	}
	return head + ": " + e.Detail
}

// ModelMessage is the error's own text: it names the server and the tool,
// never the session's command line, URL or address, and the server's
// words with credentials redacted, so the runtime hands it to the model
// whole (runtime.ModelError) even when its cause is a network error.
func (e *CallError) ModelMessage() string { return e.Error() }

// Unwrap returns the cause.
func (e *CallError) Unwrap() error { return e.Cause }

// Is reports whether target is ErrCall.
func (e *CallError) Is(target error) bool { return target == ErrCall }

// Credentials in a server's text: the value of a query parameter named
// like a secret (api_key=, token=, access_token=, key=, secret=,
// password=, signature=, ...) and the user information of a URL
// (scheme://user:password@host).
var (
	secretParam = regexp.MustCompile(`(?i)([?&;](?:[a-z0-9_.-]*(?:key|token|secret|password|passwd|pwd|signature|sig|auth|credential|session)[a-z0-9_.-]*)=)[^&;#\s"'<>]+`)
	userInfo    = regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://)[^/\s"'<>@]+@`)
)

// Redacted replaces a credential in Redact's output.
const Redacted = "REDACTED"

// Redact returns a server's text with what looks like a credential
// replaced by Redacted: the values of query parameters named like a
// secret and the user information of URLs. The rest of the text, the
// server's own words, stays.
func Redact(text string) string {
	text = secretParam.ReplaceAllString(text, "${1}"+Redacted)
	return userInfo.ReplaceAllString(text, "${1}"+Redacted+"@")
}
