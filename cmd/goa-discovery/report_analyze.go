package main

// The discovery report: what stored runs say about how an agent's model
// finds its tools. Per agent it lists the queries that found nothing, the
// tools discovery returned that no call used, the tools called most, and,
// for each called tool, the search rank at which it had been found.
//
// A call counts when the run recorded it (runtime.CallRecord: admitted
// calls). A refused call (runtime.Refusal) counts under its reason and, when
// the run may use its tool, under the tool; a call refused because the run
// had not discovered its tool yet counts in the tool's NotDiscovered. A tool
// that policy hides, or a name no tool has, is never named. A call's rank comes from the latest discovery
// result before it, in its run's history, that returned the tool: its
// 1-based position in a query's result, "by name" for a lookup by exact
// names, or none when nothing discovered it (an immediate tool). Records
// and the history's tool calls are paired in order by call id and name.

import (
	"cmp"
	"maps"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// discoveryReport is the report over a set of runs.
type discoveryReport struct {
	Agents []agentReport `json:"agents"`
}

// agentReport is the report of one agent.
type agentReport struct {
	Agent string `json:"agent"`
	// Runs counts the agent's runs read.
	Runs int `json:"runs"`
	// DiscoveryCalls counts the agent's discovery calls.
	DiscoveryCalls int `json:"discovery_calls"`
	// EmptyQueries are the queries that found nothing, most frequent first.
	EmptyQueries []queryCount `json:"empty_queries"`
	// NeverCalled are the tools discovery returned that no call used.
	NeverCalled []toolCount `json:"discovered_never_called"`
	// MostCalled are the called tools, most called first.
	MostCalled []toolCount `json:"most_called"`
	// Ranks says, per called tool, where its calls had found it.
	Ranks []toolRanks `json:"call_ranks"`
	// Refused counts the refused calls by reason and tool, most frequent
	// first.
	Refused []refusalCount `json:"refused"`
}

// refusalCount is how often calls were refused for one reason, of one tool
// when the run may use it.
type refusalCount struct {
	Reason runtime.RefusalReason `json:"reason"`
	// Tool is empty for a tool the run may not use or a name no tool has.
	Tool  string `json:"tool,omitempty"`
	Count int    `json:"count"`
}

// queryCount is a query and how often it found nothing.
type queryCount struct {
	Query string `json:"query"`
	Count int    `json:"count"`
}

// toolCount is a tool and a count: of calls, or of discovery results that
// returned it.
type toolCount struct {
	Tool  string `json:"tool"`
	Count int    `json:"count"`
}

// toolRanks says how the calls of one tool had found it.
type toolRanks struct {
	Tool string `json:"tool"`
	// Ranks are the search ranks (1-based) of the calls made after a query
	// found the tool, in order of the runs and calls.
	Ranks []int `json:"ranks"`
	// ByName counts calls made after a lookup by exact names found it.
	ByName int `json:"by_name"`
	// Undiscovered counts admitted calls of a tool no discovery returned
	// before: an immediate tool's.
	Undiscovered int `json:"undiscovered"`
	// NotDiscovered counts calls of the tool refused because the run had
	// not discovered it yet.
	NotDiscovered int `json:"not_discovered"`
}

// found is how a run last discovered a tool: rank > 0 by a query, 0 by name.
type found struct{ rank int }

// agentTally accumulates one agent's runs.
type agentTally struct {
	runs, discoveries int
	empty             map[string]int
	discovered        map[string]int
	called            map[string]int
	ranks             map[string]*toolRanks
	refused           map[refusalCount]int // by reason and tool; Count unused
}

// analyze builds the report of runs.
func analyze(runs []*runtime.RunState) discoveryReport {
	tallies := make(map[string]*agentTally)
	for _, s := range runs {
		t := tallies[s.Agent]
		if t == nil {
			t = &agentTally{empty: map[string]int{}, discovered: map[string]int{}, called: map[string]int{}, ranks: map[string]*toolRanks{}, refused: map[refusalCount]int{}}
			tallies[s.Agent] = t
		}
		t.add(s)
	}
	var rep discoveryReport
	for _, agent := range slices.Sorted(maps.Keys(tallies)) {
		rep.Agents = append(rep.Agents, tallies[agent].report(agent))
	}
	return rep
}

// add tallies one run.
func (t *agentTally) add(s *runtime.RunState) {
	t.runs++
	t.refusals(s)
	calls := make(map[string]model.DiscoveryCall) // pending discovery calls by id
	last := make(map[string]found)
	next := 0 // the next call record to pair
	for _, m := range s.Messages {
		for _, p := range m.Parts {
			switch {
			case p.DiscoveryCall != nil:
				calls[p.DiscoveryCall.ID] = *p.DiscoveryCall
			case p.DiscoveryResult != nil:
				t.discovered1(calls[p.DiscoveryResult.CallID], p.DiscoveryResult, last)
			case p.ToolCall != nil && next < len(s.Calls):
				rec := s.Calls[next]
				if rec.CallID != p.ToolCall.ID || rec.Name != p.ToolCall.Name {
					continue
				}
				next++
				t.called[rec.Name]++
				r := t.toolRanks(rec.Name)
				switch f, ok := last[rec.Name]; {
				case !ok:
					r.Undiscovered++
				case f.rank == 0:
					r.ByName++
				default:
					r.Ranks = append(r.Ranks, f.rank)
				}
			}
		}
	}
}

// toolRanks returns the ranks of a tool, added on first use.
func (t *agentTally) toolRanks(name string) *toolRanks {
	r := t.ranks[name]
	if r == nil {
		r = &toolRanks{Tool: name, Ranks: []int{}}
		t.ranks[name] = r
	}
	return r
}

// refusals tallies a run's refused calls.
func (t *agentTally) refusals(s *runtime.RunState) {
	for _, f := range s.Refusals {
		t.refused[refusalCount{Reason: f.Reason, Tool: f.Name}]++
		if f.Reason == runtime.RefusedNotDiscovered && f.Name != "" {
			t.toolRanks(f.Name).NotDiscovered++
		}
	}
}

// discovered1 tallies one discovery result of call.
func (t *agentTally) discovered1(call model.DiscoveryCall, res *model.DiscoveryResult, last map[string]found) {
	t.discoveries++
	if len(res.Tools) == 0 && call.Query != "" {
		t.empty[call.Query]++
	}
	for i, snap := range res.Tools {
		t.discovered[snap.Name]++
		f := found{rank: i + 1}
		if call.Query == "" {
			f.rank = 0
		}
		last[snap.Name] = f
	}
}

// report sorts the tallies into the agent's report.
func (t *agentTally) report(agent string) agentReport {
	r := agentReport{Agent: agent, Runs: t.runs, DiscoveryCalls: t.discoveries, EmptyQueries: []queryCount{}, NeverCalled: []toolCount{}, MostCalled: []toolCount{}, Ranks: []toolRanks{}, Refused: []refusalCount{}}
	for q, n := range t.empty {
		r.EmptyQueries = append(r.EmptyQueries, queryCount{Query: q, Count: n})
	}
	slices.SortFunc(r.EmptyQueries, func(a, b queryCount) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Query, b.Query)) })
	for tool, n := range t.discovered {
		if t.called[tool] == 0 {
			r.NeverCalled = append(r.NeverCalled, toolCount{Tool: tool, Count: n})
		}
	}
	// A tool refused as not discovered yet has a row even when no call of
	// it ran: its NOT DISCOVERED column says what the model tried.
	for tool := range t.ranks {
		r.MostCalled = append(r.MostCalled, toolCount{Tool: tool, Count: t.called[tool]})
	}
	for k, n := range t.refused {
		k.Count = n
		r.Refused = append(r.Refused, k)
	}
	slices.SortFunc(r.Refused, func(a, b refusalCount) int {
		return cmp.Or(b.Count-a.Count, cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Tool, b.Tool))
	})
	byCount := func(a, b toolCount) int { return cmp.Or(b.Count-a.Count, cmp.Compare(a.Tool, b.Tool)) }
	slices.SortFunc(r.NeverCalled, byCount)
	slices.SortFunc(r.MostCalled, byCount)
	for _, tc := range r.MostCalled {
		r.Ranks = append(r.Ranks, *t.ranks[tc.Tool])
	}
	return r
}
