// Package runtime runs agents with tool discovery built in.
//
// A Runtime registers three kinds of things before runs start: toolset
// executors (RegisterToolset, called by the registration helper that code
// generation emits per toolset), agents (RegisterAgent, called by the
// generated Register<Agent>Agent) and registry clients (RegisterRegistry).
// Agents become tools of other agents through RegisterAgentToolset (tools
// with payload schemas of their own, whose validated arguments start the
// child run) or RegisterAgentTools (tools that take a request in words).
// An AgentClient (the generated NewClient) starts runs.
//
// A run repeats planning steps. Each step resolves the agent's catalog once
// (local toolsets, then registry sources through their clients), keeps it
// fixed for the step and filters it by the run's Policy. The Planner gets the
// messages and an AgentContext whose AdvertisedToolDefinitions returns
// exactly what the next request declares: the permitted immediate tools, the
// discovery tool when the agent has deferred tools, and the tools discovered
// so far in this run. Package discovery decides those declarations (through
// a discovery.Ledger the run keeps of its history), for the capabilities of
// the planner's model when it is a ModelPlanner. The runtime then answers
// every discovery call from the permitted deferred catalog, admits or
// refuses every tool call, executes the admitted ones (a local executor, a
// registry, or a child run for an agent used as a tool), appends the
// results and plans again, until the planner answers without calls or a cap
// (steps, tool calls, depth of agents used as tools, time) ends the run with
// a *CapError.
//
// A tool outside the run's policy is never declared, found or executed: a
// call to it is answered with an error result. Every call the runtime
// refuses (not discovered yet, changed, hidden, unknown, invalid arguments,
// over a cap, nested too deep, left when the run ended) is a Refusal,
// recorded with the run (RunOutput.Refusals, RunState.Refusals), as a span
// event, a MetricToolRefused count by reason and a log record; a hidden or
// unknown tool is counted and never named. A child run (an agent used
// as a tool) runs under its own agent's policy and every policy in force
// for the run that started it, so a restriction on a run holds through its
// sub-agents; its failure reaches the parent's model without its details,
// which are recorded in the child run's RunState.Error. A deferred tool can be called
// only after a discovery result in the run's history returned it. Every
// admitted call is recorded as a CallRecord holding the exact definition it
// was admitted under (and, for a registry tool, its registration token);
// decoding, confirmation and replay use that record, never a fresh catalog.
// Replay runs only a call the run recorded, exactly as recorded, and only
// while the policy in force permits it.
// A registry tool (and a local tool with server-only fields) is executable
// through the spec contract.Compile makes of its record: its arguments are
// validated against the schema the model sees, server-only fields refused,
// its results checked; confirmations render with contract.Confirm, which
// masks sensitive fields. A source pinned to a version is resolved through
// a PinnedVersionResolver when its client is one.
//
// Runs are isolated: a run's catalog belongs to one planning step and its
// discovered tools to its own history. The history, with the call records,
// is recorded by the runtime's Engine (in memory by default) and can be
// stored as JSON, reloaded and continued.
//
// Step overhead does not grow with the catalog: the local catalog is built
// once per registration generation and a registry catalog once per set of
// registrations read, policy is checked per tool on use, and the search
// index of deferred tools (or the one generated code embeds), the discovery
// catalog of all deferred tools and the permitted catalogs derived from it
// (discovery.Catalog.Subset) are built only when a discovery call first
// needs them, then shared by every run that may use the same tools.
package runtime
