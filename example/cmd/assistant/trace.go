// The trace is what a reader of the quickstart watches: it wraps the planner
// that talks to the model and prints the run as the runtime drives it.

package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// maxShown is how many bytes of a tool result or argument list a trace line
// shows.
const maxShown = 160

// tracer is a runtime.Planner that prints each planning step of a run as it
// happens: what the previous step's calls returned, the request sent to the
// model with its size, and what the model asked for. It wraps the planner
// that does the work and changes nothing it sees.
type tracer struct {
	next   runtime.Planner
	log    *requestLog
	w      io.Writer
	native bool
	// replay marks token counts as those the recordings report.
	replay bool
	// seen counts the history messages already printed.
	seen int
	// sent counts the request sizes already printed.
	sent int
}

// Plan implements runtime.Planner.
func (t *tracer) Plan(ctx context.Context, in *runtime.PlanInput) (*model.Response, error) {
	t.printMessages(in.Messages)
	step := in.Agent.Step()
	fmt.Fprintf(t.w, "step %d: declares %s\n", step, t.declared(in.Agent))
	resp, err := t.next.Plan(ctx, in)
	t.printSizes()
	if err != nil {
		return nil, err
	}
	t.seen = len(in.Messages) + 1
	t.printAssistant(step, resp.Message)
	return resp, nil
}

// declared describes what the step's request declares.
func (t *tracer) declared(a runtime.AgentContext) string {
	defs := a.AdvertisedToolDefinitions()
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	s := strings.Join(names, ", ")
	if t.native {
		if deferred, err := a.DeferredToolDefinitions(); err == nil {
			s += fmt.Sprintf(" (native discovery over %d deferred tools)", len(deferred))
		}
	}
	return s
}

// printSizes prints the requests sent since the last call.
func (t *tracer) printSizes() {
	sizes := t.log.all()
	for _, n := range sizes[min(t.sent, len(sizes)):] {
		t.sent++
		fmt.Fprintf(t.w, "  request %d: %d bytes sent\n", t.sent, n)
	}
}

// printMessages prints the history messages not printed yet: the results
// of the previous step's calls.
func (t *tracer) printMessages(msgs []model.Message) {
	for _, m := range msgs[min(t.seen, len(msgs)):] {
		for _, p := range m.Parts {
			switch {
			case p.DiscoveryResult != nil:
				r := p.DiscoveryResult
				if len(r.Tools) == 0 {
					fmt.Fprintf(t.w, "  found nothing: %s\n", r.Note)
					continue
				}
				names := make([]string, len(r.Tools))
				for i, s := range r.Tools {
					names[i] = s.Name
				}
				fmt.Fprintf(t.w, "  found: %s\n", strings.Join(names, ", "))
			case p.ToolResult != nil:
				r := p.ToolResult
				label := "result"
				if r.IsError {
					label = "error"
				}
				fmt.Fprintf(t.w, "  %s of %s: %s\n", label, r.Name, shorten(r.Content))
			}
		}
	}
	t.seen = len(msgs)
}

// printAssistant prints what the model asked for. The final answer is
// printed by finish.
func (t *tracer) printAssistant(step int, m model.Message) {
	if !m.HasPendingCalls() {
		return
	}
	for _, p := range m.Parts {
		switch {
		case p.Text != "":
			fmt.Fprintf(t.w, "  model: %s\n", shorten(p.Text))
		case p.Reasoning != nil && p.Reasoning.Text != "":
			fmt.Fprintf(t.w, "  thinking: %s\n", shorten(p.Reasoning.Text))
		case p.Reasoning != nil && p.Reasoning.Redacted:
			fmt.Fprintf(t.w, "  thinking: (redacted)\n")
		case p.DiscoveryCall != nil:
			c := p.DiscoveryCall
			var what []string
			if c.Query != "" {
				what = append(what, fmt.Sprintf("query %q", c.Query))
			}
			if len(c.Names) > 0 {
				what = append(what, "names "+strings.Join(c.Names, ", "))
			}
			fmt.Fprintf(t.w, "  search: %s\n", strings.Join(what, ", "))
		case p.ToolCall != nil:
			c := p.ToolCall
			args := string(c.Arguments)
			if args == "" {
				args = c.MalformedArguments
			}
			fmt.Fprintf(t.w, "  call: %s %s\n", c.Name, shorten(args))
		}
	}
}

// finish prints what the run's last step left: results of its calls, the
// answer, where each call ran and the totals.
func (t *tracer) finish(out *runtime.RunOutput) {
	t.printMessages(out.Messages)
	if answer := out.Final.Text(); answer != "" && !out.Final.HasPendingCalls() {
		fmt.Fprintf(t.w, "\nanswer: %s\n\n", answer)
	}
	for _, c := range out.Calls {
		where := string(c.Source.Kind) + " toolset " + c.Source.Toolset
		switch c.Source.Kind {
		case runtime.SourceRegistry:
			where = fmt.Sprintf("registry %s, toolset %s@%s, token %s", c.Source.Registry, c.Source.Toolset, c.Source.Version, c.Source.Token)
		case runtime.SourceMCP:
			where = fmt.Sprintf("mcp server %s, toolset %s", c.Source.Server, c.Source.Toolset)
		}
		fmt.Fprintf(t.w, "call %s ran %s (%s)\n", c.Tool, where, c.CallID)
	}
	sizes := t.log.all()
	total := 0
	parts := make([]string, len(sizes))
	for i, n := range sizes {
		total += n
		parts[i] = fmt.Sprint(n)
	}
	tokens := "tokens"
	if t.replay {
		tokens = "tokens as recorded"
	}
	fmt.Fprintf(t.w, "%d steps, %d tool calls, stop %s; request bodies %s bytes (total %d); %s: %d in (%d cached), %d out\n",
		out.Steps, out.ToolCalls, orDash(string(out.Stop)), strings.Join(parts, " + "), total,
		tokens, out.Usage.InputTokens, out.Usage.CacheReadTokens, out.Usage.OutputTokens)
}

// orDash returns s, or "-" when s is empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// shorten returns s on one line, cut to about maxShown bytes.
func shorten(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxShown {
		return s
	}
	cut := maxShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
