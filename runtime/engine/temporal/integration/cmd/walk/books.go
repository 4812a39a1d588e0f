package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"go.temporal.io/sdk/activity"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/engine/temporal"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// taskQueue is the walk's task queue.
const taskQueue = "walk"

// agentName is the walk's agent.
const agentName = "bookkeeper"

// engineOptions are the engine's options in every process of the walk. A
// call's activity heartbeats; one whose worker died is retried once two
// seconds pass without a heartbeat.
var engineOptions = temporal.Options{
	TaskQueue: taskQueue,
	Plan: workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &sdktemporal.RetryPolicy{InitialInterval: 200 * time.Millisecond},
	},
	Call: workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		HeartbeatTimeout:    2 * time.Second,
		RetryPolicy:         &sdktemporal.RetryPolicy{InitialInterval: 200 * time.Millisecond},
	},
}

// The tools of the books toolset, by authored name: their description
// and the JSON Schema of their arguments.
var bookTools = []struct{ name, description, payload string }{
	{"balance", "Read an account's balance",
		`{"type":"object","properties":{"account":{"type":"string"}},"required":["account"],"additionalProperties":false}`},
	{"reconcile", "Reconcile an account with its bank statement (slow)",
		`{"type":"object","properties":{"account":{"type":"string"}},"required":["account"],"additionalProperties":false}`},
	{"post", "Post an entry to an account",
		`{"type":"object","properties":{"account":{"type":"string"},"amount":{"type":"string"},"memo":{"type":"string"}},"required":["account","amount","memo"],"additionalProperties":false}`},
}

// scriptedModel is the walk's planner. It stands for an LLM (no API key,
// no network): step n of a run answers with the nth response of its
// script, whatever the tools returned, in any worker process.
func scriptedModel() runtime.Planner {
	script := []*model.Response{
		respond(call("c1", "books_balance", `{"account":"cash"}`), call("c2", "books_balance", `{"account":"bank"}`)),
		respond(call("c3", "books_reconcile", `{"account":"bank"}`)),
		respond(call("c4", "books_post", `{"account":"bank","amount":"-12.50","memo":"bank fee found by reconcile"}`)),
		respond(model.TextPart("Reconciled the bank account and posted the 12.50 fee it found.")),
	}
	return runtime.PlannerFunc(func(_ context.Context, in *runtime.PlanInput) (*model.Response, error) {
		if n := in.Agent.Step(); n <= len(script) {
			return script[n-1], nil
		}
		return nil, fmt.Errorf("scripted model: no step %d", in.Agent.Step())
	})
}

func respond(parts ...model.Part) *model.Response {
	r, err := model.NewResponse(model.AssistantMessage(parts...), model.FinishStop, model.Usage{InputTokens: 100, OutputTokens: 20})
	if err != nil {
		panic(err) // the script is fixed: a bad response is a bug of this file
	}
	return r
}

func call(id, name, args string) model.Part {
	return model.ToolCallPart(model.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(args)})
}

// application registers the books toolset, executed by exec, and the
// bookkeeper agent on a runtime recording in engine: the same in the
// workers and in the process that starts runs.
func application(engine *temporal.Engine, exec runtime.ToolExecutor) (*runtime.Runtime, error) {
	rt := runtime.New(runtime.WithEngine(engine))
	reg := runtime.ToolsetRegistration{Schema: tools.ToolsetSchema{Name: "books", Description: "The company's books"}, Executor: exec}
	var immediate []tools.Ident
	for _, t := range bookTools {
		id := tools.Ident("books." + t.name)
		schema, err := tools.CompileSchema([]byte(t.payload))
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", id, err)
		}
		reg.Schema.Tools = append(reg.Schema.Tools, tools.ToolSchema{Name: id, Description: t.description, Payload: json.RawMessage(t.payload)})
		reg.Specs = append(reg.Specs, tools.ToolSpec{Name: id, Description: t.description, Payload: tools.NewRawCodec(schema)})
		immediate = append(immediate, id)
	}
	if err := rt.RegisterToolset(reg); err != nil {
		return nil, err
	}
	err := rt.RegisterAgent(context.Background(), runtime.AgentRegistration{Name: agentName, Immediate: immediate, Planner: scriptedModel()})
	if err != nil {
		return nil, err
	}
	return rt, nil
}

// bookExecutor executes the books' tools and deduplicates by call
// identity: an attempt whose call has a recorded result returns it, and an
// attempt that finishes records its result only if no other attempt has.
// A call killed mid-execution therefore runs again, from the start, and
// its result (the call's effect on the books) is recorded once.
type bookExecutor struct {
	ledger *Ledger
	// reconcile is how long books.reconcile works.
	reconcile time.Duration
	// log receives a line per attempt.
	log io.Writer
}

func (e *bookExecutor) Execute(ctx context.Context, inv *runtime.ToolInvocation) (any, error) {
	id := CallIdentity{Run: inv.RunID, Step: inv.Step, CallID: inv.CallID}
	var attempt int32
	if activity.IsActivity(ctx) {
		attempt = activity.GetInfo(ctx).Attempt
	}
	if err := e.ledger.Attempt(id, string(inv.Tool), attempt); err != nil {
		return nil, err
	}
	fmt.Fprintf(e.log, "%s %s attempt %d started\n", inv.Tool, id, attempt)
	if recorded, ok, err := e.ledger.Result(id); err != nil || ok {
		if ok {
			fmt.Fprintf(e.log, "%s %s attempt %d: the result is recorded already\n", inv.Tool, id, attempt)
		}
		return recorded, err
	}
	result, err := e.work(ctx, inv)
	if err != nil {
		return nil, err
	}
	recorded, err := e.ledger.Record(id, string(inv.Tool), result)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(e.log, "%s %s attempt %d: result recorded\n", inv.Tool, id, attempt)
	return recorded, nil
}

// work computes a call's result; books.reconcile takes e.reconcile and
// heartbeats meanwhile, so that Temporal sees a dead worker within the
// heartbeat timeout.
func (e *bookExecutor) work(ctx context.Context, inv *runtime.ToolInvocation) (json.RawMessage, error) {
	var args struct{ Account, Amount, Memo string }
	if err := json.Unmarshal(inv.Arguments, &args); err != nil {
		return nil, err
	}
	switch inv.Tool {
	case "books.balance":
		balances := map[string]string{"cash": "1200.00", "bank": "8650.40"}
		return json.Marshal(map[string]string{"account": args.Account, "balance": balances[args.Account]})
	case "books.reconcile":
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
		done := time.After(e.reconcile)
		for working := true; working; {
			select {
			case <-done:
				working = false
			case <-tick.C:
				if activity.IsActivity(ctx) {
					activity.RecordHeartbeat(ctx)
				}
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return json.Marshal(map[string]string{"account": args.Account, "difference": "-12.50", "reason": "bank fee"})
	case "books.post":
		return json.Marshal(map[string]string{"account": args.Account, "amount": args.Amount, "entry": inv.RunID + "/" + inv.CallID})
	}
	return nil, fmt.Errorf("books: no tool %s", inv.Tool)
}
