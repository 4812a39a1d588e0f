package gateway

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/mcp"
)

func TestParseConfig(t *testing.T) {
	cases := []struct {
		name, in, err string
	}{
		{"stdio", `{"mcpServers":{"files":{"command":"mcp-server-filesystem","args":["/tmp"],"env":{"A":"1"},"deny":["write_file"]}}}`, ""},
		{"http", `{"mcpServers":{"issues":{"type":"http","url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer x"},"allow":["a","b"],"immediate":["a"]}}}`, ""},
		{"empty", `{"mcpServers":{}}`, `"mcpServers" names no server`},
		{"no servers key", `{}`, `"mcpServers" names no server`},
		{"unknown key", `{"mcpServers":{"a":{"command":"x","comand":"y"}}}`, "unknown field"},
		{"unknown top key", `{"mcpServers":{"a":{"command":"x"}},"servers":{}}`, "unknown field"},
		{"duplicate server", `{"mcpServers":{"a":{"command":"x"},"a":{"command":"y"}}}`, "duplicate object key"},
		{"duplicate key", `{"mcpServers":{"a":{"command":"x","command":"y"}}}`, "duplicate object key"},
		{"wrong type", `{"mcpServers":{"a":{"command":"x","args":"y"}}}`, "cannot unmarshal"},
		{"both", `{"mcpServers":{"a":{"command":"x","url":"http://h/"}}}`, `mcpServers "a": both "command" and "url" are set`},
		{"neither", `{"mcpServers":{"a":{"args":["x"]}}}`, `mcpServers "a": none of "command", "url" and "registry" is set`},
		{"sse", `{"mcpServers":{"a":{"type":"sse","url":"http://h/"}}}`, `"type": "sse"`},
		{"bad type", `{"mcpServers":{"a":{"type":"ws","url":"http://h/"}}}`, `"type": "ws"`},
		{"http type with command", `{"mcpServers":{"a":{"type":"http","command":"x"}}}`, "a command is a stdio server"},
		{"stdio type with url", `{"mcpServers":{"a":{"type":"stdio","url":"http://h/"}}}`, `a stdio server needs "command"`},
		{"relative url", `{"mcpServers":{"a":{"url":"/mcp"}}}`, "want an absolute http or https URL"},
		{"ftp url", `{"mcpServers":{"a":{"url":"ftp://h/"}}}`, "want an absolute http or https URL"},
		{"args with url", `{"mcpServers":{"a":{"url":"http://h/","args":["x"]}}}`, `are for a "command" server`},
		{"headers with command", `{"mcpServers":{"a":{"command":"x","headers":{"A":"b"}}}}`, `"headers" is for a "url" server`},
		{"env key", `{"mcpServers":{"a":{"command":"x","env":{"A=B":"c"}}}}`, `"env" key "A=B"`},
		{"header key", `{"mcpServers":{"a":{"url":"http://h/","headers":{"A B":"c"}}}}`, `"headers" key "A B"`},
		{"server name", `{"mcpServers":{"my server":{"command":"x"}}}`, `mcpServers "my server": the server's name prefixes`},
		{"allowed and denied", `{"mcpServers":{"a":{"command":"x","allow":["t"],"deny":["t"]}}}`, `tool "t" is both allowed and denied`},
		{"twice in a list", `{"mcpServers":{"a":{"command":"x","deny":["t","t"]}}}`, `deny lists tool "t" twice`},
		{"empty name", `{"mcpServers":{"a":{"command":"x","allow":[""]}}}`, `allow[0] is empty`},
		{"immediate denied", `{"mcpServers":{"a":{"command":"x","deny":["t"],"immediate":["t"]}}}`, `immediate tool "t" is not allowed`},
		{"immediate outside allow", `{"mcpServers":{"a":{"command":"x","allow":["u"],"immediate":["t"]}}}`, `immediate tool "t" is not allowed`},
		{"trailing", `{"mcpServers":{"a":{"command":"x"}}} {}`, "data after the top-level value"},
		{"not json", `mcpServers`, "invalid"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(tc.in))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("ParseConfig: %v", err)
				}
				if ups, err := c.Upstreams([]string{"PATH=/bin"}); err != nil || len(ups) != 1 {
					t.Fatalf("Upstreams = %v, %v", ups, err)
				} else if _, err := New(ups, Options{}); err != nil {
					t.Fatalf("New: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("ParseConfig error = %v, want ErrConfig with %q", err, tc.err)
			}
		})
	}
}

func TestConfigUpstreams(t *testing.T) {
	c, err := ParseConfig([]byte(`{"mcpServers":{
		"b":{"command":"srv","args":["-x"],"env":{"A":"2","C":"3"},"cwd":"/tmp"},
		"a":{"url":"https://h.example/mcp"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	ups, err := c.Upstreams([]string{"A=1", "B=1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups) != 2 || ups[0].Name != "a" || ups[1].Name != "b" {
		t.Fatalf("upstreams %+v, want a then b", ups)
	}
	if h, ok := ups[0].Transport.(*mcp.HTTPTransport); !ok || h.URL != "https://h.example/mcp" {
		t.Errorf("a's transport = %#v", ups[0].Transport)
	}
	cmd, ok := ups[1].Transport.(*mcp.CommandTransport)
	if !ok {
		t.Fatalf("b's transport = %#v", ups[1].Transport)
	}
	if cmd.Path != "srv" || !slices.Equal(cmd.Args, []string{"-x"}) || cmd.Dir != "/tmp" {
		t.Errorf("b's command = %+v", cmd)
	}
	if want := []string{"B=1", "A=2", "C=3"}; !slices.Equal(cmd.Env, want) {
		t.Errorf("b's environment = %v, want %v", cmd.Env, want)
	}
}

// FuzzParseConfig checks that the parser refuses or accepts without
// panicking, and that an accepted file gives a gateway New accepts.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{"mcpServers":{"files":{"command":"x","args":["/tmp"],"env":{"A":"1"},"deny":["w"]}}}`))
	f.Add([]byte(`{"mcpServers":{"issues":{"type":"http","url":"http://127.0.0.1:1/mcp","allow":["a"],"immediate":["a"]}}}`))
	f.Add([]byte(`{"mcpServers":{"a":{"command":"x","command":"y"}}}`))
	f.Add([]byte(`{"mcpServers":{"billing":{"registry":"https://r.example.com","toolset":"billing","version":"1.4.0","token_env":"T","deny":["a"]}}}`))
	f.Add([]byte(`{"mcpServers":{"company":{"registry":"http://127.0.0.1:1","toolset":"*","allow":["b.a"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("error %v does not match ErrConfig", err)
			}
			return
		}
		ups, err := c.Upstreams(nil)
		if err != nil {
			// A token variable the environment lacks, or a token the
			// registry client refuses, is known only here.
			if !errors.Is(err, ErrConfig) {
				t.Fatalf("Upstreams error %v does not match ErrConfig", err)
			}
			return
		}
		if _, err := New(ups, Options{}); err != nil {
			t.Fatalf("ParseConfig accepted %q and New refused it: %v", data, err)
		}
	})
}
