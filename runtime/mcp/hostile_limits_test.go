package mcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// TestDoublingReferencesHitTheNodeLimit checks that a schema whose
// definitions each refer twice to the next fails Register and Differences
// with a *LimitError once its inlined form passes MaxSchemaNodes, whether
// the server or the declaration states it, while a shallow one still
// compares equal.
func TestDoublingReferencesHitTheNodeLimit(t *testing.T) {
	cases := []struct {
		name             string
		levels           int // of the server's schema
		declared         string
		limits           mcp.Limits
		what             string // of the LimitError; "" when the schemas match
		declaredSideFail bool
	}{
		{name: "16 levels served, default limit", levels: 16, declared: `{"type":"object"}`, what: "inputSchema nodes once references are inlined"},
		{name: "6 levels under a limit of 100", levels: 6, declared: `{"type":"object"}`, limits: mcp.Limits{MaxSchemaNodes: 100}, what: "inputSchema nodes once references are inlined"},
		{name: "12 levels declared under a limit of 1,000", levels: 1, declared: doublingSchema(12), limits: mcp.Limits{MaxSchemaNodes: 1000}, what: "inputSchema nodes once references are inlined", declaredSideFail: true},
		{name: "4 levels on both sides match", levels: 4, declared: doublingSchema(4)},
	}
	for _, tr := range hostileTransports {
		for _, tc := range cases {
			t.Run(tr.name+"/"+tc.name, func(t *testing.T) {
				s := connect(t, "hostile", tr.open(t, hostileOptions{Levels: tc.levels}), mcp.WithLimits(tc.limits))
				declared := tools.ToolsetSchema{Name: "hx", Tools: []tools.ToolSchema{tool("hx.deep", tc.declared, "")}}
				rt := runtime.New()
				regErr := mcp.RegisterToolset(context.Background(), rt, s, mcp.DeclaredToolset{Schema: declared})
				_, diffErr := s.Differences(context.Background(), declared)
				for which, err := range map[string]error{"RegisterToolset": regErr, "Differences": diffErr} {
					if tc.what == "" {
						if err != nil {
							t.Errorf("%s: %v", which, err)
						}
						continue
					}
					var le *mcp.LimitError
					if !errors.As(err, &le) || !errors.Is(err, mcp.ErrLimit) {
						t.Fatalf("%s error = %v, want a *LimitError", which, err)
					}
					limit := tc.limits.MaxSchemaNodes
					if limit == 0 {
						limit = mcp.DefaultLimits.MaxSchemaNodes
					}
					if le.What != tc.what || le.Tool != "deep" || le.Limit != limit || le.Got <= le.Limit {
						t.Errorf("%s: LimitError = %+v, want %q over %d", which, le, tc.what, limit)
					}
					if got := strings.Contains(err.Error(), "declared inputSchema"); got != tc.declaredSideFail {
						t.Errorf("%s error %q: names the declared schema = %v, want %v", which, err, got, tc.declaredSideFail)
					}
				}
			})
		}
	}
}

// TestOversizedMessagesHitTheMessageLimit checks that a tools/call result
// and a tools/list larger than MaxMessageBytes fail with a *LimitError,
// over stdio and streamable HTTP (a JSON body and an SSE event), and that
// the session connects again afterwards.
func TestOversizedMessagesHitTheMessageLimit(t *testing.T) {
	const limit = 1 << 20
	cases := []struct {
		name string
		o    hostileOptions
		call bool // tools/call, otherwise tools/list
	}{
		{"tools/call result of 2 MiB", hostileOptions{Levels: 1, ResultBytes: 2 << 20}, true},
		{"tools/list description of 2 MiB", hostileOptions{DescriptionBytes: 2 << 20}, false},
	}
	for _, tr := range hostileTransports {
		for _, tc := range cases {
			t.Run(tr.name+"/"+tc.name, func(t *testing.T) {
				// MaxResultBytes above the message: the message limit
				// must stop the read, not the check of the decoded result.
				s := connect(t, "hostile", tr.open(t, tc.o), mcp.WithLimits(mcp.Limits{MaxMessageBytes: limit, MaxResultBytes: 4 << 20}))
				var err error
				if tc.call {
					_, err = s.Call(context.Background(), "deep", nil)
					var ce *mcp.CallError
					if !errors.As(err, &ce) || ce.Kind != mcp.CallInvalid {
						t.Fatalf("Call error = %v, want an invalid *CallError", err)
					}
				} else {
					_, err = s.ListTools(context.Background())
				}
				var le *mcp.LimitError
				if !errors.As(err, &le) || !errors.Is(err, mcp.ErrLimit) {
					t.Fatalf("error = %v, want a *LimitError", err)
				}
				if le.What != "message bytes" || le.Limit != limit || le.Got <= limit || le.Server != "hostile" {
					t.Errorf("LimitError = %+v, want message bytes over %d", le, limit)
				}
				if tc.call {
					// The connection is replaced: the next use works.
					if _, err := s.ListTools(context.Background()); err != nil {
						t.Errorf("ListTools after the oversized result: %v", err)
					}
				}
			})
		}
	}
}

// TestListBytesLimit checks that a tool list larger than MaxListBytes,
// page after page, fails with a *LimitError once its tools pass the limit.
func TestListBytesLimit(t *testing.T) {
	const limit = 10_000
	for _, tr := range hostileTransports {
		t.Run(tr.name, func(t *testing.T) {
			s := connect(t, "hostile", tr.open(t, hostileOptions{Tools: 10, ToolBytes: 2000, PageTools: 2}), mcp.WithLimits(mcp.Limits{MaxListBytes: limit}))
			_, err := s.ListCatalog(context.Background(), "hx")
			var le *mcp.LimitError
			if !errors.As(err, &le) || le.What != "tools/list bytes" || le.Limit != limit || le.Got <= limit || le.Got > limit+3000 {
				t.Fatalf("ListCatalog error = %v (%+v), want tools/list bytes just over %d", err, le, limit)
			}
		})
	}
}

// TestSourceKeepsListsWithinTheByteBudget checks that a dynamic source
// whose list changes at every read keeps earlier lists only while they
// hold at most twice MaxListBytes together: a call admitted under a list
// it dropped is refused as one of a list that changed, a call under a
// list it kept as one of a tool that changed.
func TestSourceKeepsListsWithinTheByteBudget(t *testing.T) {
	for _, tr := range hostileTransports {
		t.Run(tr.name, func(t *testing.T) {
			// Each list is about 4,400 bytes: two fit in 2 x 5,000, three
			// do not.
			s := connect(t, "hostile", tr.open(t, hostileOptions{Tools: 2, ToolBytes: 2500, Changing: true}), mcp.WithLimits(mcp.Limits{MaxListBytes: 5000}))
			src, err := mcp.NewSource(s, "hx")
			if err != nil {
				t.Fatal(err)
			}
			var tokens []string
			for range 3 {
				ts, err := src.ListToolsets(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				tokens = append(tokens, ts[0].Token)
			}
			// The kept list first: a call under a dropped one reads the
			// list again.
			for _, c := range []struct {
				list int
				want string
			}{{2, "the tool changed on the server"}, {1, "tool list changed since the call was admitted"}} {
				_, err := src.CallTool(context.Background(), &runtime.RegistryCall{Tool: "hx.t0", Token: tokens[c.list-1], Arguments: []byte(`{}`)})
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("call under list %d: error = %v, want %q", c.list, err, c.want)
				}
			}
		})
	}
}
