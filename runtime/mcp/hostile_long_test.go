//go:build long

package mcp_test

// Peak memory against the hostile server at full size: each case runs in
// a process of its own (this test binary re-run with hostileCaseEnv), which
// reports its peak resident set (getrusage's ru_maxrss) when the case is
// done; the HTTP server runs in that process too and streams what it
// sends, the stdio server is a process of its own. Run with
//
//	go test -tags long -run TestHostileServerPeakMemory -v ./runtime/mcp/

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// hostileCaseEnv names the case a re-run test binary plays, as
// "<case>/<transport>".
const hostileCaseEnv = "GOA_DISCOVERY_MCP_HOSTILE_CASE"

// peakBudget is the peak resident set each case must stay under.
const peakBudget = 300 << 20

// memoryCase is one hostile server and what is done with it.
type memoryCase struct {
	name string
	o    hostileOptions
	// run does it and returns its error.
	run func(t *testing.T, s *mcp.Session) error
	// want is how it must end: the What of a *LimitError, or "" for
	// success.
	want string
}

// plainDeep is a declaration of the doubling server's tool that does not
// refer to anything.
var plainDeep = tools.ToolsetSchema{Name: "hx", Tools: []tools.ToolSchema{tool("hx.deep", `{"type":"object"}`, "")}}

var memoryCases = []memoryCase{
	{"Register, doubling $ref schema of 25 levels", hostileOptions{Levels: 25}, func(t *testing.T, s *mcp.Session) error {
		return mcp.RegisterToolset(context.Background(), runtime.New(), s, mcp.DeclaredToolset{Schema: plainDeep})
	}, "inputSchema nodes once references are inlined"},
	{"Differences (mcp diff), doubling $ref schema of 25 levels", hostileOptions{Levels: 25}, func(t *testing.T, s *mcp.Session) error {
		_, err := s.Differences(context.Background(), plainDeep)
		return err
	}, "inputSchema nodes once references are inlined"},
	{"tools/call result of 200 MB", hostileOptions{Levels: 1, ResultBytes: 200e6}, func(t *testing.T, s *mcp.Session) error {
		_, err := s.Call(context.Background(), "deep", nil)
		return err
	}, "message bytes"},
	{"tools/list with a description of 200 MB (mcp import)", hostileOptions{DescriptionBytes: 200e6}, func(t *testing.T, s *mcp.Session) error {
		_, err := s.ListTools(context.Background())
		return err
	}, "message bytes"},
	{"dynamic source, one read of 2,000 x 60 KB", hostileOptions{Tools: 2000, ToolBytes: 60e3, PageTools: 100}, func(t *testing.T, s *mcp.Session) error {
		src, err := mcp.NewSource(s, "hx")
		if err != nil {
			t.Fatal(err)
		}
		_, err = src.ListToolsets(context.Background())
		return err
	}, "tools/list bytes"},
	{"dynamic source, 1,000 x 60 KB changing at every read", hostileOptions{Tools: 1000, ToolBytes: 60e3, PageTools: 100, Changing: true}, func(t *testing.T, s *mcp.Session) error {
		return runSteps(t, s, 6)
	}, "tools/list bytes"},
	{"dynamic source, 120 x 60 KB changing at every read, 30 steps", hostileOptions{Tools: 120, ToolBytes: 60e3, PageTools: 100, Changing: true}, func(t *testing.T, s *mcp.Session) error {
		return runSteps(t, s, 30)
	}, ""},
}

// runSteps runs an agent over the server's dynamic source for steps
// planning steps, each calling one of its tools.
func runSteps(t *testing.T, s *mcp.Session, steps int) error {
	rt := runtime.New()
	if _, err := mcp.RegisterSource(rt, s, "hx"); err != nil {
		t.Fatal(err)
	}
	script := make([]scriptStep, steps)
	for i := range script {
		script[i] = func(*testing.T, *runtime.PlanInput) model.Message {
			return calls(call(fmt.Sprintf("c%d", i), "hx.t0", `{}`))
		}
	}
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
		Name:       "assistant",
		Registries: []runtime.RegistrySource{{Registry: s.Server(), Toolset: "hx"}},
		Planner:    scripted(t, script...),
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rt.Client("assistant").Run(context.Background(), []model.Message{model.UserMessage("go")})
	return err
}

// TestHostileServerPeakMemory runs each case against each transport in a
// process of its own and reports its peak resident set.
func TestHostileServerPeakMemory(t *testing.T) {
	for _, mc := range memoryCases {
		for _, tr := range hostileTransports {
			name := mc.name + "/" + tr.name
			t.Run(name, func(t *testing.T) {
				cmd := exec.Command(os.Args[0], "-test.run=^TestHostileMemoryCase$", "-test.v")
				cmd.Env = append(os.Environ(), hostileCaseEnv+"="+name)
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("case process: %v\n%s", err, out)
				}
				var peak int64 = -1
				var outcome string
				sc := bufio.NewScanner(strings.NewReader(string(out)))
				for sc.Scan() {
					line := strings.TrimSpace(sc.Text())
					if v, ok := strings.CutPrefix(line, "peak_rss_bytes "); ok {
						peak, _ = strconv.ParseInt(v, 10, 64)
					}
					if v, ok := strings.CutPrefix(line, "outcome "); ok {
						outcome = v
					}
				}
				if peak < 0 {
					t.Fatalf("the case reported no peak:\n%s", out)
				}
				t.Logf("peak RSS %.1f MiB; %s", float64(peak)/(1<<20), outcome)
				if peak > peakBudget {
					t.Errorf("peak RSS %.1f MiB, more than %d MiB", float64(peak)/(1<<20), peakBudget>>20)
				}
			})
		}
	}
}

// TestHostileMemoryCase plays the case of hostileCaseEnv; it is skipped
// otherwise.
func TestHostileMemoryCase(t *testing.T) {
	name := os.Getenv(hostileCaseEnv)
	if name == "" {
		t.Skip("run by TestHostileServerPeakMemory")
	}
	i := strings.LastIndex(name, "/") // transports' names have none
	caseName, trName := name[:i], name[i+1:]
	for _, mc := range memoryCases {
		if mc.name != caseName {
			continue
		}
		for _, tr := range hostileTransports {
			if tr.name != trName {
				continue
			}
			s := connect(t, "hostile", tr.open(t, mc.o))
			err := mc.run(t, s)
			outcome := "succeeded"
			if err != nil {
				outcome = "failed: " + clipText(err.Error())
			}
			var le *mcp.LimitError
			if errors.As(err, &le) {
				outcome = fmt.Sprintf("LimitError %s (limit %d, read %d)", le.What, le.Limit, le.Got)
			}
			switch {
			case mc.want == "" && err != nil:
				t.Errorf("%s: %v", name, err)
			case mc.want != "" && (le == nil || le.What != mc.want):
				t.Errorf("%s: error = %v, want a *LimitError of %s", name, err, mc.want)
			}
			var ru syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
				t.Fatal(err)
			}
			fmt.Printf("\noutcome %s\npeak_rss_bytes %d\n", outcome, ru.Maxrss*1024) // Linux reports KiB
			return
		}
	}
	t.Fatalf("no case %q", name)
}

func clipText(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
