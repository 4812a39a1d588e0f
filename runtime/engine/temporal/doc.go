// Package temporal runs agents durably on Temporal: a run's invocation is a
// workflow, a planning step (catalog resolution, the planner call,
// admission and discovery answers) and each tool call are activities with
// the retry policies the application sets, and an agent used as a tool is a
// child workflow. The workflow drives the runtime's own run loop
// (runtime.Runtime.Drive); the activities run the loop's steps from their
// recorded requests (runtime.Runtime.PlanStep, ExecuteCall, ConfirmCall).
//
// The run's history, call records and counters are the workflow's data:
// the query QueryRun returns them while it runs and after it stops, and a
// stopped run's exported workflow history gives them back
// (RunStateFromHistory) for runtime.Runtime.ImportRun. Continuing a run
// starts a new execution of its workflow id from the recorded state; one
// execution of a run is active at a time.
//
// What survives which fault: a worker that dies loses nothing recorded;
// another worker replays the workflow from its history, where every
// completed planning step and tool call is recorded and is not run again,
// and the caps (steps, tool calls, depth, and the time cap on the
// workflow's clock) are counted from that history. An activity whose
// worker died before it reported is retried under its retry policy with the
// same call identity (run id, step, call id in runtime.ToolInvocation and
// runtime.RegistryCall), so an executor or a registry can recognise the
// retry; activity.GetInfo on the executor's context tells the attempt.
package temporal
