package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/runtime/mcp"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch/openaiembed"
)

// searchFlags are the arguments of the search command.
type searchFlags struct {
	tools      string
	mcpCommand string
	mcpURL     string
	design     string
	agent      string
	queries    string
	limit      int
	passes     int
	json       bool
	misses     bool
	embeddings string
	embedModel string
	embedBatch int
	embedCache string
	// embedRetries is the most attempts at one batch of texts.
	embedRetries int
	words        []string
}

// runSearch ranks a catalog's tools for a query, or evaluates search on a
// query set.
func runSearch(args []string, stdout, stderr io.Writer) int {
	f, err := parseSearchFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery search: %v\n", err)
		return 2
	}
	if err := search(f, stdout, stderr); err != nil {
		if !errors.Is(err, errDesign) { // the design's errors are printed as gen prints them
			fmt.Fprintf(stderr, "goa-discovery search: %v\n", err)
		}
		return 1
	}
	return 0
}

func parseSearchFlags(args []string, stderr io.Writer) (searchFlags, error) {
	var f searchFlags
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.tools, "tools", "", "tool catalog: JSON lines of {name, description, parameters} or of tool wire records {name, description, payload}, an MCP tools/list result or a toolset wire record")
	fs.StringVar(&f.mcpCommand, "mcp-command", "", "tool catalog: the tools/list of the MCP server this command starts (stdio), \"CMD ARGS\" split at spaces")
	fs.StringVar(&f.mcpURL, "mcp-url", "", "tool catalog: the tools/list of the MCP server at this streamable HTTP endpoint")
	fs.StringVar(&f.design, "design", "", "tool catalog: the deferred tools that an agent's search tool searches, from the design package at this import path; registry and MCP-listed sources are named on stderr, not included")
	fs.StringVar(&f.agent, "agent", "", "the agent of --design; required when the design declares several")
	fs.StringVar(&f.queries, "queries", "", "query set to evaluate: JSON lines of {query, gold}")
	fs.IntVar(&f.limit, "limit", toolsearch.DefaultLimit, "number of tools to print for a query")
	fs.IntVar(&f.passes, "passes", 5, "timed passes over the query set when evaluating (1 with --embeddings unless given)")
	fs.BoolVar(&f.json, "json", false, "print the evaluation as one JSON object")
	fs.BoolVar(&f.misses, "misses", false, "after the evaluation, list each request whose top 5 holds none of its gold tools, with its top 5 (with --json, one JSON object a request)")
	fs.StringVar(&f.embeddings, "embeddings", "", "base URL of an OpenAI embeddings API (key in OPENAI_API_KEY): rank by hybrid search, the lexical ranking fused with embeddings")
	fs.StringVar(&f.embedModel, "embeddings-model", string(openaiembed.DefaultModel), "embedding model of --embeddings")
	fs.IntVar(&f.embedBatch, "embed-batch", toolsearch.DefaultEmbedBatch, "tool texts sent to --embeddings in one request")
	fs.IntVar(&f.embedRetries, "embed-retries", toolsearch.DefaultEmbedAttempts, "attempts at one request of --embeddings before giving up, 1 s apart and doubling; the requests done are kept")
	fs.StringVar(&f.embedCache, "embed-cache", "", "directory of the tool vectors of --embeddings, by server, model and tool text (default the user cache directory's goa-discovery/embeddings)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goa-discovery search CATALOG [--embeddings URL] [--limit N] QUERY...")
		fmt.Fprintln(stderr, "       goa-discovery search CATALOG [--embeddings URL] --queries FILE [--passes N] [--json] [--misses]")
		fmt.Fprintln(stderr, "CATALOG is --tools FILE, --mcp-command \"CMD ARGS\", --mcp-url URL or --design IMPORTPATH [--agent NAME]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	f.words = fs.Args()
	set := make(map[string]bool)
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if f.embeddings != "" && !set["passes"] {
		f.passes = 1 // each search embeds its query: one pass is slow enough
	}
	catalogs := 0
	for _, c := range []string{f.tools, f.mcpCommand, f.mcpURL, f.design} {
		if c != "" {
			catalogs++
		}
	}
	switch {
	case catalogs == 0:
		return f, errors.New("--tools is required, or --mcp-command \"CMD ARGS\", --mcp-url URL or --design IMPORTPATH")
	case catalogs > 1:
		return f, errors.New("give one catalog: --tools, --mcp-command, --mcp-url or --design")
	case set["agent"] && f.design == "":
		return f, errors.New("--agent applies with --design IMPORTPATH")
	case set["agent"] && f.agent == "":
		return f, errors.New("--agent names no agent")
	case set["mcp-command"] && len(strings.Fields(f.mcpCommand)) == 0:
		return f, errors.New("--mcp-command names no command")
	case f.limit < 1:
		return f, fmt.Errorf("--limit must be at least 1, got %d", f.limit)
	case f.passes < 1:
		return f, fmt.Errorf("--passes must be at least 1, got %d", f.passes)
	case f.queries == "" && len(f.words) == 0:
		return f, errors.New("give a QUERY or --queries FILE")
	case f.queries != "" && len(f.words) > 0:
		return f, errors.New("give a QUERY or --queries FILE, not both")
	case f.queries == "" && f.json:
		return f, errors.New("--json applies to --queries evaluation")
	case f.queries == "" && f.misses:
		return f, errors.New("--misses applies to --queries evaluation")
	case f.queries == "" && set["passes"]:
		return f, errors.New("--passes applies to --queries evaluation")
	case set["embeddings-model"] && f.embeddings == "":
		return f, errors.New("--embeddings-model applies with --embeddings URL")
	case f.embeddings == "" && (set["embed-batch"] || set["embed-cache"] || set["embed-retries"]):
		return f, errors.New("--embed-batch, --embed-cache and --embed-retries apply with --embeddings URL")
	case f.embedBatch < 1:
		return f, fmt.Errorf("--embed-batch must be at least 1, got %d", f.embedBatch)
	case f.embedRetries < 1:
		return f, fmt.Errorf("--embed-retries must be at least 1, got %d", f.embedRetries)
	case set["embed-cache"] && f.embedCache == "":
		return f, errors.New("--embed-cache names no directory")
	case set["embeddings"] && f.embeddings == "":
		return f, errors.New("--embeddings names no URL")
	case f.queries != "" && set["limit"]:
		return f, fmt.Errorf("--limit applies to a QUERY; --queries evaluation ranks the top %d", evalDepth)
	}
	return f, nil
}

func search(f searchFlags, stdout, stderr io.Writer) error {
	ctx := context.Background()
	docs, source, err := readCatalog(ctx, f, stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	ix, err := toolsearch.NewIndexFromDocuments(docs)
	build := time.Since(start)
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	s := lexicalSearcher(ix)
	var embedding *embeddingReport
	if f.embeddings != "" {
		var er embeddingReport
		if s, er, err = hybridSearcher(ctx, ix, docs, f, stderr); err != nil {
			return err
		}
		embedding = &er
	}
	if f.queries == "" {
		query := strings.Join(f.words, " ")
		results, err := s(ctx, nil, query, f.limit)
		if err != nil {
			return err
		}
		return printRanking(stdout, query, results)
	}
	queries, err := readQueriesFile(f.queries, ix)
	if err != nil {
		return err
	}
	metrics, err := evaluate(ctx, s, queries, f.passes)
	if err != nil {
		return err
	}
	report := evalReport{evalMetrics: metrics}
	if embedding != nil {
		lexical, err := evaluate(ctx, lexicalSearcher(ix), queries, f.passes)
		if err != nil {
			return err
		}
		report.Lexical, report.Hybrid, report.Embedding = &lexical, &metrics, embedding
	}
	report.Queries = len(queries)
	report.Tools = ix.Len()
	report.BuildMS = float64(build.Microseconds()) / 1000
	write := report.writeText
	if f.json {
		write = report.writeJSON
	}
	if err := write(stdout); err != nil || !f.misses {
		return err
	}
	misses, err := missedQueries(ctx, s, queries)
	if err != nil {
		return err
	}
	if f.json {
		return writeMissesJSON(stdout, misses)
	}
	return writeMissesText(stdout, misses, len(queries))
}

// readCatalog reads the catalog the flags name and says where it came from.
func readCatalog(ctx context.Context, f searchFlags, stderr io.Writer) ([]toolsearch.Document, string, error) {
	switch {
	case f.design != "":
		return readDesignCatalog(ctx, f.design, f.agent, stderr)
	case f.mcpCommand != "":
		args := strings.Fields(f.mcpCommand)
		cmd := mcp.Command(args[0], args[1:]...)
		cmd.TerminateAfter = time.Second
		docs, err := readMCPServer(cmd)
		return docs, "--mcp-command " + args[0], err
	case f.mcpURL != "":
		docs, err := readMCPServer(mcp.HTTP(f.mcpURL, nil))
		return docs, f.mcpURL, err
	}
	docs, err := readToolsFile(f.tools)
	return docs, f.tools, err
}

func readToolsFile(path string) ([]toolsearch.Document, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	docs, err := catalogfile.ReadTools(file)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return docs, nil
}

func readQueriesFile(path string, ix *toolsearch.Index) ([]catalogfile.Query, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	known := func(name string) bool { _, err := ix.Lookup(name); return err == nil }
	queries, err := catalogfile.ReadQueries(file, known)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return queries, nil
}

// printRanking prints one ranked tool a line: rank, name, score and the
// fields that matched; when nothing matched the query, the note a
// discovery answer gives (noMatchNote).
func printRanking(w io.Writer, query string, results []toolsearch.Result) error {
	if len(results) == 0 {
		note, err := noMatchNote(query)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, note)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, r := range results {
		fields := r.Fields.String()
		switch {
		case r.Exact && fields != "":
			fields = "exact name," + fields
		case r.Exact:
			fields = "exact name"
		}
		fmt.Fprintf(tw, "%d.\t%s\t%.3f\t%s\n", i+1, r.Name, r.Score, fields)
	}
	return tw.Flush()
}
