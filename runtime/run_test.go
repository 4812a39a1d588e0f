package runtime_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

func TestDiscoverThenCall(t *testing.T) {
	client := newScriptedClient(
		respond(t, searchPart("d1", "revenue trends")),
		respond(t, callPart("c1", "records_analyze", `{"id":"42"}`)),
		final(t, "Revenue is up."),
	)
	rt, exec := newRecordsRuntime(t, client, nil)
	out, err := rt.Client("assistant").Run(context.Background(), userSays("How is revenue?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Stop != runtime.StopCompleted || out.Steps != 3 || out.ToolCalls != 1 {
		t.Errorf("stop %q, %d steps, %d tool calls; want completed, 3, 1", out.Stop, out.Steps, out.ToolCalls)
	}
	wantTools := [][]string{
		{"records_lookup", runtime.DiscoveryToolName},
		{"records_lookup", runtime.DiscoveryToolName, "records_analyze"},
		{"records_lookup", runtime.DiscoveryToolName, "records_analyze"},
	}
	if diff := cmp.Diff(wantTools, client.requestTools()); diff != "" {
		t.Errorf("declared tools (-want +got):\n%s", diff)
	}
	found := discoveryResults(out.Messages)["d1"]
	if len(found.Tools) == 0 || found.Tools[0].Name != "records_analyze" {
		t.Fatalf("discovery found %v, want records_analyze first", snapshotNames(found))
	}
	if res := toolResults(out.Messages)["c1"]; res.IsError || res.Content != `records.analyze({"id":"42"})` {
		t.Errorf("tool result %+v", res)
	}
	if exec.count() != 1 {
		t.Errorf("executor ran %d times, want 1", exec.count())
	}
	if len(out.Calls) != 1 {
		t.Fatalf("%d call records, want 1", len(out.Calls))
	}
	rec := out.Calls[0]
	want := toolsetSchema(t, "records", recordsTools...).Tools[2]
	if diff := cmp.Diff(want, rec.Definition); diff != "" {
		t.Errorf("recorded definition (-want +got):\n%s", diff)
	}
	if rec.Source.Kind != runtime.SourceLocal || rec.Tool != "records.analyze" || rec.Step != 2 {
		t.Errorf("record %+v", rec)
	}
	if out.Final.Text() != "Revenue is up." || out.Usage.InputTokens != 30 {
		t.Errorf("final %q usage %+v", out.Final.Text(), out.Usage)
	}
	if err := model.ValidateMessages(out.Messages); err != nil {
		t.Errorf("history: %v", err)
	}
}

func TestRefusedCalls(t *testing.T) {
	tests := []struct {
		name     string
		steps    []func(testing.TB) *model.Response
		refused  string // call id answered with an error
		contains string
	}{
		{
			name: "call before discovery",
			steps: []func(testing.TB) *model.Response{
				func(t testing.TB) *model.Response { return respond(t, callPart("c1", "records_analyze", `{"id":"1"}`)) },
			},
			refused: "c1", contains: "has not been discovered yet. Call tool_search with names",
		},
		{
			name: "call in the message that discovers it",
			steps: []func(testing.TB) *model.Response{
				func(t testing.TB) *model.Response {
					return respond(t, searchPart("d1", "", "records_analyze"), callPart("c1", "records_analyze", `{"id":"1"}`))
				},
			},
			refused: "c1", contains: "has not been discovered yet",
		},
		{
			name: "unknown tool",
			steps: []func(testing.TB) *model.Response{
				func(t testing.TB) *model.Response { return respond(t, callPart("c1", "records_purge", `{"id":"1"}`)) },
			},
			refused: "c1", contains: `Tool "records_purge" is not available in this run.`,
		},
		{
			name: "invalid arguments",
			steps: []func(testing.TB) *model.Response{
				func(t testing.TB) *model.Response { return respond(t, callPart("c1", "records_lookup", `{"id":7}`)) },
			},
			refused: "c1", contains: `Invalid arguments for "records_lookup"`,
		},
		{
			name: "malformed arguments",
			steps: []func(testing.TB) *model.Response{
				func(t testing.TB) *model.Response {
					return respond(t, model.ToolCallPart(model.ToolCall{ID: "c1", Name: "records_lookup", MalformedArguments: "{id:"}))
				},
			},
			refused: "c1", contains: "are not valid JSON",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var script []*model.Response
			for _, s := range tc.steps {
				script = append(script, s(t))
			}
			script = append(script, final(t, "done"))
			rt, exec := newRecordsRuntime(t, newScriptedClient(script...), nil)
			out, err := rt.Client("assistant").Run(context.Background(), userSays("go"))
			if err != nil {
				t.Fatal(err)
			}
			res := toolResults(out.Messages)[tc.refused]
			if !res.IsError || !strings.Contains(res.Content, tc.contains) {
				t.Errorf("result %+v, want an error containing %q", res, tc.contains)
			}
			if exec.count() != 0 || len(out.Calls) != 0 {
				t.Errorf("refused call executed: %d executions, %d records", exec.count(), len(out.Calls))
			}
		})
	}
}

func TestPolicy(t *testing.T) {
	tests := []struct {
		name       string
		opts       []runtime.RunOption
		agent      runtime.Policy
		query      string
		names      []string
		call       string
		wantFound  []string
		wantCalled bool
		wantTools  []string
	}{
		{
			name:  "denied tool is neither found by name nor by query nor called",
			opts:  []runtime.RunOption{runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"records.delete"}})},
			names: []string{"records_delete"}, query: "permanently delete", call: "records_delete",
			wantFound: []string{}, wantTools: []string{"records_lookup", "tool_search"},
		},
		{
			name:  "agent policy denies a whole toolset, immediate tools included",
			agent: runtime.Policy{DenyToolsets: []string{"records"}},
			names: []string{"records_analyze"}, call: "records_lookup",
			wantFound: []string{}, wantTools: []string{"tool_search"},
		},
		{
			name:  "allow list keeps only listed tools",
			opts:  []runtime.RunOption{runtime.WithPolicy(runtime.Policy{AllowTools: []tools.Ident{"records.lookup", "records.search"}})},
			query: "search analyze records", call: "records_lookup",
			wantFound: []string{"records_search"}, wantCalled: true, wantTools: []string{"records_lookup", "tool_search"},
		},
		{
			name:  "required label missing",
			names: []string{"records_export"}, query: "export spreadsheet", call: "records_export",
			wantFound: []string{}, wantTools: []string{"records_lookup", "tool_search"},
		},
		{
			name:  "required label present",
			opts:  []runtime.RunOption{runtime.WithLabels(map[string]string{"tier": "pro"})},
			names: []string{"records_export"}, wantFound: []string{"records_export"},
			wantTools: []string{"records_lookup", "tool_search"},
		},
		{
			name: "policy labels gate a tool",
			opts: []runtime.RunOption{
				runtime.WithLabels(map[string]string{"role": "viewer"}),
				runtime.WithPolicy(runtime.Policy{RequiredLabels: map[tools.Ident]map[string]string{"records.lookup": {"role": "admin"}}}),
			},
			call: "records_lookup", names: []string{"records_search"}, wantFound: []string{"records_search"},
			wantTools: []string{"tool_search"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parts := []model.Part{searchPart("d1", tc.query, tc.names...)}
			script := []*model.Response{respond(t, parts...)}
			if tc.call != "" {
				script = append(script, respond(t, callPart("c1", tc.call, `{"id":"1"}`)))
			}
			script = append(script, final(t, "done"))
			client := newScriptedClient(script...)
			rt, exec := newRecordsRuntime(t, client, func(r *runtime.AgentRegistration) { r.Policy = tc.agent })
			out, err := rt.Client("assistant").Run(context.Background(), userSays("go"), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			got := snapshotNames(discoveryResults(out.Messages)["d1"])
			if diff := cmp.Diff(tc.wantFound, got); diff != "" {
				t.Errorf("found (-want +got):\n%s", diff)
			}
			if len(got) == 0 && discoveryResults(out.Messages)["d1"].Note == "" {
				t.Error("empty discovery result has no note")
			}
			if first := client.requestTools()[0]; !slices.Equal(first, tc.wantTools) {
				t.Errorf("first request declares %v, want %v", first, tc.wantTools)
			}
			if tc.call != "" {
				res := toolResults(out.Messages)["c1"]
				if called := exec.count() == 1; called != tc.wantCalled || res.IsError == tc.wantCalled {
					t.Errorf("called %v (result %+v), want called %v", called, res, tc.wantCalled)
				}
			}
		})
	}
}

func TestCaps(t *testing.T) {
	lookup := func(t testing.TB, ids ...string) *model.Response {
		var parts []model.Part
		for _, id := range ids {
			parts = append(parts, callPart(id, "records_lookup", `{"id":"1"}`))
		}
		return respond(t, parts...)
	}
	tests := []struct {
		name      string
		caps      runtime.Caps
		script    func(testing.TB) []*model.Response
		want      runtime.StopReason
		wantCalls int
	}{
		{
			name: "steps",
			caps: runtime.Caps{MaxSteps: 2},
			script: func(t testing.TB) []*model.Response {
				return []*model.Response{lookup(t, "a"), lookup(t, "b"), lookup(t, "c")}
			},
			want: runtime.StopMaxSteps, wantCalls: 2,
		},
		{
			name: "tool calls",
			caps: runtime.Caps{MaxToolCalls: 3},
			script: func(t testing.TB) []*model.Response {
				return []*model.Response{lookup(t, "a", "b"), lookup(t, "c", "d", "e"), final(t, "unreached")}
			},
			want: runtime.StopMaxToolCalls, wantCalls: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rt, exec := newRecordsRuntime(t, newScriptedClient(tc.script(t)...), func(r *runtime.AgentRegistration) { r.Caps = tc.caps })
			out, err := rt.Client("assistant").Run(context.Background(), userSays("go"))
			var capErr *runtime.CapError
			if !errors.As(err, &capErr) || capErr.Reason != tc.want || !errors.Is(err, runtime.ErrCapExceeded) {
				t.Fatalf("error %v, want a cap error %q", err, tc.want)
			}
			if out == nil || out.Stop != tc.want || exec.count() != tc.wantCalls || out.ToolCalls != tc.wantCalls {
				t.Fatalf("output %+v, executions %d; want stop %q after %d calls", out, exec.count(), tc.want, tc.wantCalls)
			}
			if err := model.ValidateMessages(out.Messages); err != nil {
				t.Errorf("history: %v", err)
			}
			state, err := rt.LoadRun(context.Background(), out.RunID)
			if err != nil {
				t.Fatal(err)
			}
			if state.Status != runtime.RunStopped || state.Stop != tc.want || len(state.Messages) != len(out.Messages) {
				t.Errorf("recorded %s/%s with %d messages, want stopped/%s with %d", state.Status, state.Stop, len(state.Messages), tc.want, len(out.Messages))
			}
		})
	}
}

func TestTimeCap(t *testing.T) {
	rt := runtime.New()
	blocking := runtime.ToolExecutorFunc(func(ctx context.Context, _ *runtime.ToolInvocation) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	registerToolset(t, rt, "slow", blocking, toolDef{name: "wait", description: "Wait for ever"})
	client := newScriptedClient(respond(t, callPart("c1", "slow_wait", `{"id":"1"}`)), final(t, "unreached"))
	reg := runtime.AgentRegistration{Name: "waiter", Immediate: []tools.Ident{"slow.wait"}, Planner: plannerFor(client)}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("waiter").Run(context.Background(), userSays("wait"), runtime.WithCaps(runtime.Caps{MaxDuration: 20 * time.Millisecond}))
	var capErr *runtime.CapError
	if !errors.As(err, &capErr) || capErr.Reason != runtime.StopTimeBudget {
		t.Fatalf("error %v, want the time cap", err)
	}
	if res := toolResults(out.Messages)["c1"]; !res.IsError {
		t.Errorf("interrupted call answered %+v, want an error result", res)
	}
	if err := model.ValidateMessages(out.Messages); err != nil {
		t.Errorf("history: %v", err)
	}
}

func TestCancelledRunFails(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	p := runtime.PlannerFunc(func(context.Context, *runtime.PlanInput) (*model.Response, error) {
		cancel()
		return nil, context.Canceled
	})
	rt, _ := newRecordsRuntime(t, newScriptedClient(), func(r *runtime.AgentRegistration) { r.Planner = p })
	out, err := rt.Client("assistant").Run(ctx, userSays("go"))
	if !errors.Is(err, context.Canceled) || errors.Is(err, runtime.ErrCapExceeded) {
		t.Fatalf("error %v, want cancellation that is not a cap", err)
	}
	state, lerr := rt.LoadRun(context.Background(), out.RunID)
	if lerr != nil || state.Status != runtime.RunFailed {
		t.Errorf("recorded %+v, %v; want a failed run", state, lerr)
	}
}
