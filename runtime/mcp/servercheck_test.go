package mcp_test

import (
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

func TestCheckServer(t *testing.T) {
	f := newFixture(fixtureOptions{})
	s := connect(t, "fixture", mcp.InMemory(f.server))
	cases := []struct {
		name    string
		session *mcp.Session
		server  string
		want    *mcp.ServerError // nil: accepted
		msg     string
	}{
		{"same server", s, "fixture", nil, ""},
		{"other server", s, "github", &mcp.ServerError{Toolset: "issues", Want: "github", Got: "fixture"},
			`register toolset "issues": session of MCP server "fixture", want "github"`},
		{"nil session", nil, "github", &mcp.ServerError{Toolset: "issues", Want: "github"},
			`register toolset "issues": nil MCP session, want a session of MCP server "github"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := mcp.CheckServer(c.session, "issues", c.server)
			if c.want == nil {
				if err != nil {
					t.Fatalf("CheckServer: %v", err)
				}
				return
			}
			var se *mcp.ServerError
			if !errors.As(err, &se) || *se != *c.want {
				t.Fatalf("CheckServer = %#v, want %#v", err, c.want)
			}
			if !errors.Is(err, mcp.ErrWrongServer) {
				t.Errorf("%v does not match ErrWrongServer", err)
			}
			if err.Error() != c.msg {
				t.Errorf("message %q, want %q", err.Error(), c.msg)
			}
		})
	}
}
