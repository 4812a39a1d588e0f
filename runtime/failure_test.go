package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestToolFailureKeepsAddressesAndPathsFromTheModel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		model  string // what the model reads
		hidden []string
	}{
		{"the tool's own error", errors.New("record 7 is archived"), "The tool failed: record 7 is archived", nil},
		{"a request to a URL", fmt.Errorf("fetch record: %w", &url.Error{Op: "Post", URL: "http://10.1.2.3:8080/v1/records?token=abc", Err: errors.New("connection refused")}),
			"The tool failed: a request to another service failed.", []string{"10.1.2.3", "token=abc"}},
		{"a dial to an address", &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 9, 8, 7), Port: 5432}, Err: errors.New("refused")},
			"The tool failed: a request to another service failed.", []string{"10.9.8.7"}},
		{"a name lookup", &net.DNSError{Err: "no such host", Name: "db.internal.example"},
			"The tool failed: a request to another service failed.", []string{"internal.example"}},
		{"a file path", fmt.Errorf("load: %w", &fs.PathError{Op: "open", Path: "/var/lib/records/secret.db", Err: fs.ErrPermission}),
			"The tool failed: a file operation failed.", []string{"/var/lib"}},
		{"an error written for the model, over a URL error", modelSafeDouble{cause: &url.Error{Op: "Post", URL: "http://10.1.2.3/mcp", Err: errors.New("EOF")}},
			"The tool failed: server \"docs\": the connection was lost", []string{"10.1.2.3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := runtime.New()
			exec := runtime.ToolExecutorFunc(func(context.Context, *runtime.ToolInvocation) (any, error) { return nil, tc.err })
			registerToolset(t, rt, "records", exec, recordsTools[0])
			client := newScriptedClient(respond(t, callPart("c1", "records_lookup", `{"id":"7"}`)), final(t, "done"))
			reg := runtime.AgentRegistration{Name: "assistant", Immediate: []tools.Ident{"records.lookup"}, Planner: plannerFor(client)}
			if err := rt.RegisterAgent(context.Background(), reg); err != nil {
				t.Fatal(err)
			}
			out, err := rt.Client("assistant").Run(context.Background(), userSays("look up 7"))
			if err != nil {
				t.Fatal(err)
			}
			res := toolResults(out.Messages)["c1"]
			if !res.IsError || res.Content != tc.model {
				t.Errorf("the model reads %q, want %q", res.Content, tc.model)
			}
			for _, h := range tc.hidden {
				if strings.Contains(res.Content, h) {
					t.Errorf("the model reads %q", h)
				}
			}
			// The application finds the whole error in the call's record.
			if len(out.Calls) != 1 {
				t.Fatalf("%d records, want 1", len(out.Calls))
			}
			if got := out.Calls[0].Error; got != tc.err.Error() {
				t.Errorf("record keeps the error %q, want %q", got, tc.err)
			}
		})
	}
}

// modelSafeDouble is a test double of an error whose message is written for
// a model (runtime.ModelError) while its cause carries an address.
type modelSafeDouble struct{ cause error }

func (e modelSafeDouble) Error() string {
	return "server \"docs\": the connection was lost: " + e.cause.Error()
}
func (e modelSafeDouble) ModelMessage() string { return "server \"docs\": the connection was lost" }
func (e modelSafeDouble) Unwrap() error        { return e.cause }
