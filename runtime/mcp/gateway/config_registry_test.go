package gateway

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestParseConfigRegistry: registry entries are accepted in their two
// forms, and each bad one is refused with an error that names the entry
// and the key, either when the file is parsed or, for what depends on the
// environment (the token), when its upstreams are made. No case connects
// to a registry.
func TestParseConfigRegistry(t *testing.T) {
	env := []string{"REGISTRY_TOKEN=t0ken", "EMPTY_TOKEN=", "SPACED_TOKEN=t0 ken"}
	cases := []struct {
		name, entry string
		parseErr    string // from ParseConfig
		upsErr      string // from Upstreams(env)
		want        Upstream
	}{
		{name: "toolset", entry: `"billing":{"registry":"https://registry.example.com","toolset":"billing","version":"1.4.0","token_env":"REGISTRY_TOKEN","deny":["refund_payment"],"immediate":["list_invoices"]}`,
			want: Upstream{Name: "billing", Version: "1.4.0", Deny: []string{"refund_payment"}, Immediate: []string{"list_invoices"}}},
		{name: "whole registry", entry: `"company":{"registry":"http://127.0.0.1:8093","toolset":"*","token_env":"REGISTRY_TOKEN","allow":["billing.create_invoice"]}`,
			want: Upstream{Name: "company", AllToolsets: true, Allow: []string{"billing.create_invoice"}}},
		{name: "no token", entry: `"billing":{"registry":"http://registry.example.com","toolset":"billing"}`,
			want: Upstream{Name: "billing"}},

		{name: "no toolset", entry: `"billing":{"registry":"https://r.example.com"}`, parseErr: `mcpServers "billing": "registry" needs "toolset": the toolset to serve, named as the entry ("billing"), or "*"`},
		{name: "toolset named otherwise", entry: `"pay":{"registry":"https://r.example.com","toolset":"billing"}`, parseErr: `mcpServers "pay": "toolset": "billing" under the entry "pay": a registry toolset's entry is named after the toolset`},
		{name: "version of a whole registry", entry: `"company":{"registry":"https://r.example.com","toolset":"*","version":"1.0.0"}`, parseErr: `"version": "1.0.0" pins one toolset, not "toolset": "*"`},
		{name: "command too", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","command":"x"}`, parseErr: `"command" is for an MCP server entry, not a "registry" entry`},
		{name: "url too", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","url":"https://h.example/mcp"}`, parseErr: `"url" is for an MCP server entry, not a "registry" entry`},
		{name: "headers", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","headers":{"A":"b"}}`, parseErr: `"headers" is for an MCP server entry`},
		{name: "type", entry: `"billing":{"type":"http","registry":"https://r.example.com","toolset":"billing"}`, parseErr: `"type" is for an MCP server entry`},
		{name: "toolset on a server", entry: `"files":{"command":"x","toolset":"files"}`, parseErr: `mcpServers "files": "toolset" is for a "registry" entry, not an MCP server`},
		{name: "token on a server", entry: `"issues":{"url":"https://h.example/mcp","token_env":"T"}`, parseErr: `"token_env" is for a "registry" entry`},
		{name: "relative registry", entry: `"billing":{"registry":"/v1","toolset":"billing"}`, parseErr: `mcpServers "billing": "registry": registry client: base URL`},
		{name: "ftp registry", entry: `"billing":{"registry":"ftp://r.example.com","toolset":"billing"}`, parseErr: `"registry": registry client: base URL`},
		{name: "token variable name", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","token_env":"A=B"}`, parseErr: `"token_env": "A=B" is not a variable name`},
		{name: "allowed and denied", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","allow":["a"],"deny":["a"]}`, parseErr: `tool "a" is both allowed and denied`},
		{name: "immediate denied", entry: `"company":{"registry":"https://r.example.com","toolset":"*","deny":["b.a"],"immediate":["b.a"]}`, parseErr: `immediate tool "b.a" is not allowed`},
		{name: "unknown key", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","token":"x"}`, parseErr: `unknown field`},

		{name: "token not set", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","token_env":"MISSING_TOKEN"}`, upsErr: `mcpServers "billing": "token_env": MISSING_TOKEN is not set in the gateway's environment`},
		{name: "token empty", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","token_env":"EMPTY_TOKEN"}`, upsErr: `"token_env": EMPTY_TOKEN is empty`},
		{name: "token with a space", entry: `"billing":{"registry":"https://r.example.com","toolset":"billing","token_env":"SPACED_TOKEN"}`, upsErr: `bearer token holds white space`},
		{name: "token over plain http", entry: `"billing":{"registry":"http://registry.example.com","toolset":"billing","token_env":"REGISTRY_TOKEN"}`, upsErr: `mcpServers "billing": "registry": registry client: http://registry.example.com is plain http to a host that is not loopback`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseConfig([]byte(`{"mcpServers":{` + tc.entry + `}}`))
			if tc.parseErr != "" {
				if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.parseErr) {
					t.Fatalf("ParseConfig error = %v, want ErrConfig with %q", err, tc.parseErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseConfig: %v", err)
			}
			ups, err := c.Upstreams(env)
			if tc.upsErr != "" {
				if err == nil || !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.upsErr) {
					t.Fatalf("Upstreams error = %v, want ErrConfig with %q", err, tc.upsErr)
				}
				return
			}
			if err != nil || len(ups) != 1 {
				t.Fatalf("Upstreams = %v, %v", ups, err)
			}
			u := ups[0]
			if u.Registry == nil || u.Transport != nil || u.Name != tc.want.Name || u.Version != tc.want.Version || u.AllToolsets != tc.want.AllToolsets ||
				!slices.Equal(u.Allow, tc.want.Allow) || !slices.Equal(u.Deny, tc.want.Deny) || !slices.Equal(u.Immediate, tc.want.Immediate) {
				t.Errorf("upstream %+v, want %+v with a registry client", u, tc.want)
			}
			if _, err := New(ups, Options{}); err != nil {
				t.Errorf("New: %v", err)
			}
		})
	}
}
