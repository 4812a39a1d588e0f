package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/example/gen/agents/analyst"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/desk"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/researcher"
	"github.com/goa-discovery/goa-discovery/example/gen/agents/senior"
	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

const (
	exampleDesign = "github.com/goa-discovery/goa-discovery/example/design"
	searchAgents  = designsPath + "searchagents"
)

// TestSearchDesign runs search --design end to end: the agent's deferred
// tools are found, its immediate ones are not, and its registry source is
// named on stderr as not included.
func TestSearchDesign(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	tests := []struct {
		name string
		args []string
		code int
		// found are tools the ranking holds, absent tools it does not.
		found, absent []string
		// stderr are lines stderr holds.
		stderr []string
	}{
		{name: "example desk", args: []string{"--design", exampleDesign, "--agent", "desk", "merge", "duplicate", "tickets"},
			found: []string{"tickets.merge_tickets"}, absent: []string{"tickets.get_ticket", "tickets.search_tickets"},
			stderr: []string{
				`goa-discovery search: agent "desk" of service "support": 3 deferred tools searched; 7 immediate tools declared on every request, never searched`,
				`goa-discovery search: not included: toolset "payments" 2.3.0 of registry "company", read at run time`,
			}},
		{name: "two agents: clerk", args: []string{"--design", searchAgents, "--agent", "clerk", "look", "up", "or", "export", "records"},
			found: []string{"records.export"}, absent: []string{"records.lookup"},
			stderr: []string{
				`goa-discovery search: agent "clerk" of service "office": 3 deferred tools searched; 1 immediate tool declared on every request, never searched`,
				`goa-discovery search: not included: toolset "billing" 1.4.0 of registry "company", read at run time`,
			}},
		{name: "two agents without --agent", args: []string{"--design", searchAgents, "records"}, code: 1,
			stderr: []string{"goa-discovery search: design " + searchAgents + ": the design declares 2 agents: clerk (3 deferred tools), scout (0 deferred tools); name one with --agent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runSearch(tt.args, &stdout, &stderr); code != tt.code {
				t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
			}
			checkRanking(t, stdout.String(), tt.found, tt.absent)
			checkLines(t, "stderr", stderr.String(), tt.stderr)
			if kept := generatorDirs(t); len(kept) != 0 {
				t.Errorf("generator directories left behind: %v", kept)
			}
		})
	}
}

// TestSearchDesignAgents searches the catalogs of the agents of the
// example design and of a design with two agents, each design read once:
// deferred tools, local and declared MCP, are found; immediate tools are
// not, even by name; registry and MCP-listed sources are named as not
// included; an agent left out or unknown is an error listing the agents.
func TestSearchDesignAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	catalogs := map[string][]agentCatalog{}
	for _, design := range []string{exampleDesign, searchAgents} {
		all, err := agentCatalogs(context.Background(), design, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		catalogs[design] = all
	}
	tests := []struct {
		name, design, agent, query string
		found, absent              []string
		// stdout and stderr are lines the output holds; err is the error.
		stdout, stderr []string
		err            string
	}{
		{name: "example desk: an immediate tool by its name", design: exampleDesign, agent: "desk", query: "get_ticket",
			absent: []string{"tickets.get_ticket"}},
		{name: "example analyst: a declared MCP tool", design: exampleDesign, agent: "analyst", query: "read a documentation page",
			found:  []string{"docs.read_doc"},
			stderr: []string{`goa-discovery search: not included: registry "company" (all its toolsets), read at run time`}},
		{name: "example researcher: an immediate MCP tool", design: exampleDesign, agent: "researcher", query: "search_docs",
			absent: []string{"docs.search_docs"}},
		{name: "example without an agent", design: exampleDesign, query: "ticket",
			err: "design " + exampleDesign + ": the design declares 4 agents: analyst (7 deferred tools), desk (3 deferred tools), researcher (1 deferred tool), senior (2 deferred tools); name one with --agent"},
		{name: "clerk: an immediate tool by its name", design: searchAgents, agent: "clerk", query: "records.lookup",
			absent: []string{"records.lookup"}},
		{name: "clerk: a declared MCP tool", design: searchAgents, agent: "clerk", query: "street address coordinates",
			found: []string{"maps.geocode"}},
		{name: "clerk: frame words only", design: searchAgents, agent: "clerk", query: "please help me",
			stdout: []string{`The query "please help me" names nothing searchable: its words only frame a request or join words (such as "please", "help me", "the", "de", "から"); say what the tool does.`}},
		{name: "scout: only run-time sources", design: searchAgents, agent: "scout", query: "records",
			stderr: []string{
				`goa-discovery search: not included: registry "company" (all its toolsets), read at run time`,
				`goa-discovery search: not included: the tools MCP server "everything" lists (toolset "everything"), read at run time`,
			},
			err: `design ` + searchAgents + `, agent "scout": the design gives the agent no deferred tool to search`},
		{name: "unknown agent", design: searchAgents, agent: "clerks", query: "records",
			err: `design ` + searchAgents + `: the design declares no agent "clerks"; its agents are clerk (3 deferred tools), scout (0 deferred tools)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			docs, _, err := agentDocuments(catalogs[tt.design], tt.design, tt.agent, &stderr)
			checkLines(t, "stderr", stderr.String(), tt.stderr)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v, want %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ix, err := toolsearch.NewIndexFromDocuments(docs)
			if err != nil {
				t.Fatal(err)
			}
			if err := printRanking(&stdout, tt.query, ix.Search(tt.query, toolsearch.DefaultLimit)); err != nil {
				t.Fatal(err)
			}
			checkRanking(t, stdout.String(), tt.found, tt.absent)
			checkLines(t, "stdout", stdout.String(), tt.stdout)
		})
	}
}

// TestSearchDesignErrors prints a design's errors exactly as gen prints
// them, each with the design file and line, and nothing of its own.
func TestSearchDesignErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	var genOut, genErr bytes.Buffer
	if code := runGen([]string{"-o", outputModule(t), designsPath + "bad"}, &genOut, &genErr); code != 1 {
		t.Fatalf("gen: exit %d, want 1; stderr:\n%s", code, genErr.String())
	}
	var stdout, stderr bytes.Buffer
	if code := runSearch([]string{"--design", designsPath + "bad", "records"}, &stdout, &stderr); code != 1 {
		t.Fatalf("search: exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	if stderr.String() != genErr.String() {
		t.Errorf("search prints:\n%s\ngen prints:\n%s", stderr.String(), genErr.String())
	}
	at := filepath.Join(moduleRoot, "testdata/designs/bad/design.go") + ":"
	if !strings.Contains(stderr.String(), at) {
		t.Errorf("stderr names no line of %s:\n%s", at, stderr.String())
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", stdout.String())
	}
}

// TestSearchDesignMatchesGeneratedIndex checks that search --design ranks
// an example agent's tools exactly as the agent's generated search index
// does, the index its search tool uses: same tools, scores and fields for
// every word of the catalog and for whole descriptions.
func TestSearchDesignMatchesGeneratedIndex(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	all, err := agentCatalogs(context.Background(), exampleDesign, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	generated := map[string]func() (*toolsearch.Index, error){
		"analyst": analyst.SearchIndex, "desk": desk.SearchIndex, "researcher": researcher.SearchIndex, "senior": senior.SearchIndex,
	}
	if len(all) != len(generated) {
		t.Fatalf("design has %d agents, the example generates %d", len(all), len(generated))
	}
	for _, c := range all {
		t.Run(c.Agent, func(t *testing.T) {
			want, err := generated[c.Agent]()
			if err != nil {
				t.Fatal(err)
			}
			docs := make([]toolsearch.Document, len(c.Deferred))
			var queries []string
			for i := range c.Deferred {
				if docs[i], err = catalogfile.WireDocument(&c.Deferred[i]); err != nil {
					t.Fatal(err)
				}
				queries = append(queries, docs[i].Name, docs[i].Alias, docs[i].Description)
				queries = append(queries, strings.FieldsFunc(docs[i].Description+" "+string(docs[i].Parameters), func(r rune) bool {
					return !strconv.IsPrint(r) || strings.ContainsRune(" \t\n\"{}[]:,.", r)
				})...)
			}
			got, err := toolsearch.NewIndexFromDocuments(docs)
			if err != nil {
				t.Fatal(err)
			}
			if got.Len() != want.Len() {
				t.Fatalf("%d tools, the generated index has %d", got.Len(), want.Len())
			}
			for _, q := range queries {
				if diff := cmp.Diff(want.Search(q, want.Len()), got.Search(q, want.Len())); diff != "" {
					t.Errorf("query %q (-generated +search --design):\n%s", q, diff)
				}
			}
		})
	}
}

// TestSearchDesignFlags refuses --agent without --design and a second
// catalog beside --design.
func TestSearchDesignFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"agent without design", []string{"--tools", "x.jsonl", "--agent", "desk", "q"}, "--agent applies with --design IMPORTPATH"},
		{"empty agent", []string{"--design", exampleDesign, "--agent", "", "q"}, "--agent names no agent"},
		{"design and tools", []string{"--design", exampleDesign, "--tools", "x.jsonl", "q"}, "give one catalog: --tools, --mcp-command, --mcp-url or --design"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runSearch(tt.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), tt.want)
			}
		})
	}
}

// checkRanking checks that a printed ranking holds the tools found and
// none of the tools absent.
func checkRanking(t *testing.T, out string, found, absent []string) {
	t.Helper()
	ranked := rankedNames(out)
	for _, name := range found {
		if !slices.Contains(ranked, name) {
			t.Errorf("ranking %q misses %s", ranked, name)
		}
	}
	for _, name := range absent {
		if slices.Contains(ranked, name) {
			t.Errorf("ranking %q holds %s, which the agent's search tool does not search", ranked, name)
		}
	}
}

// rankedNames returns the tool names of a printed ranking.
func rankedNames(out string) []string {
	var names []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 1 && strings.HasSuffix(f[0], ".") {
			if _, err := strconv.Atoi(strings.TrimSuffix(f[0], ".")); err == nil {
				names = append(names, f[1])
			}
		}
	}
	return names
}

// checkLines checks that out holds each of lines as a whole line.
func checkLines(t *testing.T, what, out string, lines []string) {
	t.Helper()
	have := strings.Split(out, "\n")
	for _, l := range lines {
		if !slices.Contains(have, l) {
			t.Errorf("%s has no line %q:\n%s", what, l, out)
		}
	}
}
