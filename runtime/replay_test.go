package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// lookupRun runs the agent "assistant" of newRecordsRuntime once, calling
// records.lookup, and returns the run's state and its call record.
func lookupRun(t *testing.T, labels map[string]string) (*runtime.RunState, runtime.CallRecord) {
	t.Helper()
	rt, _ := newRecordsRuntime(t, newScriptedClient(respond(t, callPart("c1", "records_lookup", `{"id":"7"}`)), final(t, "done")), nil)
	out, err := rt.Client("assistant").Run(context.Background(), userSays("look up 7"), runtime.WithLabels(labels))
	if err != nil || len(out.Calls) != 1 {
		t.Fatalf("run: %v, %d records", err, len(out.Calls))
	}
	state, err := rt.LoadRun(context.Background(), out.RunID)
	if err != nil {
		t.Fatal(err)
	}
	return state, out.Calls[0]
}

// importInto returns a runtime with the records toolset (lookup with the
// given contract) and the agent "assistant" changed by mutate, holding the
// given runs.
func importInto(t *testing.T, lookupContract *tools.Contract, mutate func(*runtime.AgentRegistration), runs ...*runtime.RunState) (*runtime.Runtime, *recordingExecutor) {
	t.Helper()
	rt := runtime.New()
	exec := &recordingExecutor{}
	defs := append([]toolDef(nil), recordsTools...)
	defs[0].contract = lookupContract
	registerToolset(t, rt, "records", exec, defs...)
	reg := runtime.AgentRegistration{
		Name:      "assistant",
		Immediate: []tools.Ident{"records.lookup"},
		Deferred:  []tools.Ident{"records.search", "records.analyze", "records.delete", "records.export"},
		Planner:   plannerFor(newScriptedClient()),
	}
	if mutate != nil {
		mutate(&reg)
	}
	if err := rt.RegisterAgent(context.Background(), reg); err != nil {
		t.Fatal(err)
	}
	for _, s := range runs {
		if err := rt.ImportRun(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	return rt, exec
}

func TestReplayIsCheckedAgainstTheRunAndPolicy(t *testing.T) {
	state, rec := lookupRun(t, map[string]string{"team": "a"})
	other, otherRec := lookupRun(t, map[string]string{"team": "a"})
	deleteDef := toolsetSchema(t, "records", recordsTools[3]).Tools[0]
	for _, tc := range []struct {
		name     string
		contract *tools.Contract
		mutate   func(*runtime.AgentRegistration)
		runID    string
		rec      func(runtime.CallRecord) runtime.CallRecord
		opts     []runtime.RunOption
		want     error // nil: the call runs again
	}{
		{name: "the recorded call"},
		{name: "a call the run never made", rec: func(r runtime.CallRecord) runtime.CallRecord { r.CallID = "c9"; return r }, want: runtime.ErrReplayRefused},
		{name: "the call of another step", rec: func(r runtime.CallRecord) runtime.CallRecord { r.Step = 2; return r }, want: runtime.ErrReplayRefused},
		{name: "other arguments", rec: func(r runtime.CallRecord) runtime.CallRecord {
			r.Arguments = json.RawMessage(`{"id":"8"}`)
			return r
		}, want: runtime.ErrReplayRefused},
		{name: "another tool under the call's id", rec: func(r runtime.CallRecord) runtime.CallRecord {
			r.Name, r.Tool, r.Definition = "records_delete", "records.delete", deleteDef
			return r
		}, want: runtime.ErrReplayRefused},
		{name: "another run's call", runID: other.ID, rec: func(runtime.CallRecord) runtime.CallRecord {
			r := otherRec
			r.Arguments = json.RawMessage(`{"id":"8"}`)
			return r
		}, want: runtime.ErrReplayRefused},
		{name: "a run policy that denies the tool", opts: []runtime.RunOption{runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"records.lookup"}})},
			want: runtime.ErrReplayRefused},
		{name: "a run policy that denies another tool", opts: []runtime.RunOption{runtime.WithPolicy(runtime.Policy{DenyTools: []tools.Ident{"records.delete"}})}},
		{name: "the agent's policy now denies the tool", mutate: func(r *runtime.AgentRegistration) {
			r.Policy = runtime.Policy{DenyToolsets: []string{"records"}}
		}, want: runtime.ErrReplayRefused},
		{name: "the agent's policy now requires a label the run lacks", mutate: func(r *runtime.AgentRegistration) {
			r.Policy = runtime.Policy{RequiredLabels: map[tools.Ident]map[string]string{"records.lookup": {"team": "b"}}}
		}, want: runtime.ErrReplayRefused},
		{name: "the agent's policy requires a label the run has", mutate: func(r *runtime.AgentRegistration) {
			r.Policy = runtime.Policy{RequiredLabels: map[tools.Ident]map[string]string{"records.lookup": {"team": "a"}}}
		}},
		{name: "the tool's contract now requires a label", contract: &tools.Contract{RequiredLabels: map[string]string{"tier": "pro"}},
			want: runtime.ErrReplayRefused},
		{name: "the agent no longer uses the tool", mutate: func(r *runtime.AgentRegistration) { r.Immediate = nil }, want: runtime.ErrReplayRefused},
		{name: "labels given", opts: []runtime.RunOption{runtime.WithLabels(map[string]string{"team": "b"})}, want: runtime.ErrInvalidInput},
		{name: "caps given", opts: []runtime.RunOption{runtime.WithCaps(runtime.Caps{MaxSteps: 1})}, want: runtime.ErrInvalidInput},
		{name: "a run id given", opts: []runtime.RunOption{runtime.WithRunID("x")}, want: runtime.ErrInvalidInput},
		{name: "an invalid run policy given", opts: []runtime.RunOption{runtime.WithPolicy(runtime.Policy{DenyToolsets: []string{"not a name"}})}, want: runtime.ErrInvalidInput},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, exec := importInto(t, tc.contract, tc.mutate, state, other)
			r := rec
			if tc.rec != nil {
				r = tc.rec(rec)
			}
			runID := state.ID
			if tc.runID != "" {
				runID = tc.runID
			}
			res, err := rt.Replay(context.Background(), runID, r, tc.opts...)
			if tc.want == nil {
				if err != nil || res.IsError || exec.count() != 1 {
					t.Fatalf("replay = %+v, %v after %d executions; want it run once", res, err, exec.count())
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("replay error %v, want %v", err, tc.want)
			}
			if exec.count() != 0 {
				t.Errorf("refused replay executed %d calls", exec.count())
			}
		})
	}
}

func TestReplayOfAChildRunsCallKeepsThePoliciesAboveIt(t *testing.T) {
	child := newScriptedClient(respond(t, callPart("c1", "records_lookup", `{"id":"7"}`)), final(t, "done"))
	parent := newScriptedClient(respond(t, callPart("p1", "experts_research", `{"request":"Look up 7"}`)), final(t, "ok"))
	rt, _ := childRuntime(t, child, parent, runtime.Policy{}, runtime.Policy{})
	out, err := rt.Client("lead").Run(context.Background(), userSays("go"))
	if err != nil {
		t.Fatal(err)
	}
	lead, err := rt.LoadRun(context.Background(), out.RunID)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := rt.LoadRun(context.Background(), out.Calls[0].ChildRunID)
	if err != nil || len(sub.Calls) != 1 {
		t.Fatalf("child run: %v", err)
	}
	for _, tc := range []struct {
		name   string
		lead   runtime.Policy
		runs   []*runtime.RunState
		replay error
	}{
		{"the parent's agent permits the tool", runtime.Policy{}, []*runtime.RunState{lead, sub}, nil},
		{"the parent's agent denies the tool", runtime.Policy{DenyTools: []tools.Ident{"records.lookup"}}, []*runtime.RunState{lead, sub}, runtime.ErrReplayRefused},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt2, exec := importInto(t, nil, func(r *runtime.AgentRegistration) {
				r.Name = "researcher"
				r.Deferred = []tools.Ident{"records.search", "records.delete"}
			})
			if err := rt2.RegisterAgentTools("experts", runtime.AgentTool{Tool: "research", Agent: "researcher"}); err != nil {
				t.Fatal(err)
			}
			reg := runtime.AgentRegistration{Name: "lead", Immediate: []tools.Ident{"experts.research"}, Planner: plannerFor(newScriptedClient()), Policy: tc.lead}
			if err := rt2.RegisterAgent(context.Background(), reg); err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.runs {
				if err := rt2.ImportRun(context.Background(), s); err != nil {
					t.Fatal(err)
				}
			}
			_, err := rt2.Replay(context.Background(), sub.ID, sub.Calls[0])
			if !errors.Is(err, tc.replay) || (tc.replay == nil) != (exec.count() == 1) {
				t.Errorf("replay: %v after %d executions, want %v", err, exec.count(), tc.replay)
			}
		})
	}
}
