package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

const reportGoldenDir = moduleRoot + "/testdata/golden/report/"

// reportPayload is the argument schema of the report tests' tools.
const reportPayload = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`

// echoExecutor is a ToolExecutor test double answering every call with its
// tool's name.
type echoExecutor struct{}

func (echoExecutor) Execute(_ context.Context, inv *runtime.ToolInvocation) (any, error) {
	return string(inv.Tool), nil
}

// scriptedPlanner is a Planner test double answering each step with the
// next prepared message.
func scriptedPlanner(t *testing.T, steps ...[]model.Part) runtime.Planner {
	return runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) {
		if len(steps) == 0 {
			return nil, fmt.Errorf("scripted planner: no step left")
		}
		parts := steps[0]
		steps = steps[1:]
		return model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{})
	})
}

// reportRuntime returns a runtime with the "records" toolset (lookup
// immediate; search, analyze, delete, export deferred) and an agent over it
// for each planner.
func reportRuntime(t *testing.T, planners map[string]runtime.Planner) *runtime.Runtime {
	t.Helper()
	rt := runtime.New()
	ts := tools.ToolsetSchema{Name: "records", Description: "Customer records"}
	reg := runtime.ToolsetRegistration{Executor: echoExecutor{}}
	schema := tools.MustCompileSchema([]byte(reportPayload))
	for _, d := range []struct{ name, desc string }{
		{"lookup", "Look up a customer record by id"},
		{"search", "Search customer records by keywords"},
		{"analyze", "Analyze revenue trends of records"},
		{"delete", "Delete a customer record"},
		{"export", "Export records to a spreadsheet"},
	} {
		id := tools.Ident("records." + d.name)
		ts.Tools = append(ts.Tools, tools.ToolSchema{Name: id, Description: d.desc, Payload: json.RawMessage(reportPayload)})
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: id, Description: d.desc, Payload: tools.NewRawCodec(schema)})
	}
	reg.Schema = ts
	if err := rt.RegisterToolset(reg); err != nil {
		t.Fatal(err)
	}
	for name, p := range planners {
		err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{
			Name:      name,
			Immediate: []tools.Ident{"records.lookup"},
			Deferred:  []tools.Ident{"records.search", "records.analyze", "records.delete", "records.export"},
			Planner:   p,
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return rt
}

func query(id, q string) model.Part {
	return model.DiscoveryCallPart(model.DiscoveryCall{ID: id, Query: q})
}

func byNames(id string, names ...string) model.Part {
	return model.DiscoveryCallPart(model.DiscoveryCall{ID: id, Names: names})
}

func call(id, name string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{"id":"1"}`)})
}

func text(s string) model.Part { return model.TextPart(s) }

// storedRun runs one agent's script and returns its recorded state as JSON.
func storedRun(t *testing.T, agent, runID string, steps ...[]model.Part) []byte {
	t.Helper()
	rt := reportRuntime(t, map[string]runtime.Planner{agent: scriptedPlanner(t, steps...)})
	if _, err := rt.Client(agent).Run(context.Background(), []model.Message{model.UserMessage("help")}, runtime.WithRunID(runID)); err != nil {
		t.Fatal(err)
	}
	state, err := rt.LoadRun(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	return append(data, '\n')
}

func TestReport(t *testing.T) {
	cases := []struct {
		name  string
		files func(t *testing.T) map[string][]byte
	}{
		{"one_run", func(t *testing.T) map[string][]byte {
			return map[string][]byte{"a.json": storedRun(t, "assistant", "run-1",
				[]model.Part{query("d1", "search customer records"), query("d2", "weather forecast"), call("c1", "records_lookup")},
				[]model.Part{call("c2", "records_search"), call("c3", "records_delete")},
				[]model.Part{text("done")},
			)}
		}},
		{"ranks_and_names", func(t *testing.T) map[string][]byte {
			return map[string][]byte{
				"a.json": storedRun(t, "assistant", "run-1",
					[]model.Part{query("d1", "analyze revenue trends")},
					[]model.Part{call("c1", "records_analyze"), byNames("d2", "records_export")},
					[]model.Part{call("c2", "records_export"), call("c3", "records_analyze")},
					[]model.Part{text("done")},
				),
				// A call before discovery is refused and does not count.
				"b.json": storedRun(t, "assistant", "run-2",
					[]model.Part{call("c1", "records_search"), query("d1", "forecast the weather")},
					[]model.Part{query("d2", "search customer records")},
					[]model.Part{call("c2", "records_search")},
					[]model.Part{text("done")},
				),
				"c.json": storedRun(t, "auditor", "run-3",
					[]model.Part{query("d1", "payroll ledger")},
					[]model.Part{query("d2", "payroll ledger"), call("c1", "records_lookup")},
					[]model.Part{text("done")},
				),
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range c.files(t) {
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, format := range []struct {
				ext  string
				args []string
			}{{".txt", []string{"report", dir}}, {".json", []string{"report", "--json", dir}}} {
				var stdout, stderr bytes.Buffer
				if code := run(format.args, &stdout, &stderr); code != 0 {
					t.Fatalf("report exited %d: %s", code, stderr.String())
				}
				golden.File(t, reportGoldenDir+c.name+format.ext, stdout.Bytes())
			}
		})
	}
}

func TestReportRefusesBadInput(t *testing.T) {
	good := storedRun(t, "assistant", "run-1", []model.Part{text("done")})
	cases := []struct {
		name, input, want string
	}{
		{"unknown field", strings.Replace(string(good), `"agent"`, `"agentt":"x","agent"`, 1), `unknown field "agentt"`},
		{"unknown field in a part", strings.Replace(string(good), `"kind":"text"`, `"kind":"text","extra":1`, 1), `unknown field "extra"`},
		{"no agent", strings.Replace(string(good), `"agent":"assistant"`, `"agent":""`, 1), "needs an id and an agent"},
		{"not JSON", "{", "unexpected EOF"},
		{"result without call", `{"id":"r","agent":"a","messages":[{"role":"user","parts":[{"kind":"text","text":"x"}]},{"role":"tool","parts":[{"kind":"tool_result","tool_result":{"call_id":"c9","name":"t","content":"x"}}]}],"steps":0,"tool_calls":0,"status":"stopped"}`, `run "r"`},
		{"twice", string(good) + string(good), `run "run-1" is stored more than once`},
		{"empty", "", "no stored run"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "runs.json")
			if err := os.WriteFile(path, []byte(c.input), 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := run([]string{"report", path}, &stdout, &stderr); code != 1 {
				t.Fatalf("exit %d, want 1; stderr %s", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) {
				t.Errorf("stderr %q does not say %q", stderr.String(), c.want)
			}
			if stdout.Len() != 0 {
				t.Errorf("a refused input printed a report: %s", stdout.String())
			}
		})
	}
}

func TestReportUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"report"}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "at least one run file") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}

// FuzzDecodeRuns checks that any input either fails to decode or yields
// runs whose report is the same after they are encoded and decoded again.
func FuzzDecodeRuns(f *testing.F) {
	f.Add([]byte(`{"id":"r","agent":"a","messages":[{"role":"user","parts":[{"kind":"text","text":"x"}]}],"steps":0,"tool_calls":0,"status":"stopped"}`))
	f.Add([]byte(`{"id":"r","agent":"a","messages":[{"role":"user","parts":[{"kind":"text","text":"x"}]},{"role":"assistant","parts":[{"kind":"discovery_call","discovery_call":{"id":"d","query":"q"}}]},{"role":"tool","parts":[{"kind":"discovery_result","discovery_result":{"call_id":"d","note":"none"}}]}],"steps":1,"tool_calls":0,"status":"stopped"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		runs, err := decodeRuns(data)
		if err != nil {
			return
		}
		rep := analyze(runs)
		var again bytes.Buffer
		for _, s := range runs {
			b, err := json.Marshal(s)
			if err != nil {
				t.Fatalf("a decoded run does not encode: %v", err)
			}
			again.Write(b)
		}
		runs2, err := decodeRuns(again.Bytes())
		if err != nil {
			t.Fatalf("an encoded run does not decode: %v", err)
		}
		a, _ := json.Marshal(rep)
		b, _ := json.Marshal(analyze(runs2))
		if !bytes.Equal(a, b) {
			t.Fatalf("the report changed over a round trip:\n%s\n%s", a, b)
		}
	})
}
