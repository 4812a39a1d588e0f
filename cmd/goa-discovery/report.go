package main

// The report command: goa-discovery report [--json] PATH...

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// runReport prints the discovery report of stored runs.
func runReport(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: goa-discovery report [--json] RUN_FILE_OR_DIR...")
		fmt.Fprintln(stderr, "Reads runs stored as JSON (runtime.RunState records, one after another; a directory stands for its *.json files).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "goa-discovery report: give at least one run file or directory")
		return 2
	}
	runs, err := readRunFiles(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery report: %v\n", err)
		return 1
	}
	rep := analyze(runs)
	if *asJSON {
		err = writeReportJSON(stdout, rep)
	} else {
		err = writeReportText(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "goa-discovery report: %v\n", err)
		return 1
	}
	return 0
}

// writeReportJSON prints the report as one indented JSON object.
func writeReportJSON(w io.Writer, rep discoveryReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// writeReportText prints the report as tables, one section per agent.
func writeReportText(w io.Writer, rep discoveryReport) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for i, a := range rep.Agents {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "agent %s (runs: %d, discovery calls: %d)\n", a.Agent, a.Runs, a.DiscoveryCalls)
		fmt.Fprintln(tw, "\nqueries that found nothing:")
		if len(a.EmptyQueries) == 0 {
			fmt.Fprintln(tw, "  (none)")
		} else {
			fmt.Fprintln(tw, "  TIMES\tQUERY")
			for _, q := range a.EmptyQueries {
				fmt.Fprintf(tw, "  %d\t%s\n", q.Count, strconv.Quote(q.Query))
			}
		}
		fmt.Fprintln(tw, "\ntools discovered but never called:")
		if len(a.NeverCalled) == 0 {
			fmt.Fprintln(tw, "  (none)")
		} else {
			fmt.Fprintln(tw, "  DISCOVERED\tTOOL")
			for _, t := range a.NeverCalled {
				fmt.Fprintf(tw, "  %d\t%s\n", t.Count, t.Tool)
			}
		}
		fmt.Fprintln(tw, "\ntools called most, with the search rank each call had found the tool at:")
		if len(a.MostCalled) == 0 {
			fmt.Fprintln(tw, "  (none)")
		} else {
			fmt.Fprintln(tw, "  CALLS\tTOOL\tRANKS\tBY NAME\tNOT DISCOVERED")
			for k, t := range a.MostCalled {
				r := a.Ranks[k]
				fmt.Fprintf(tw, "  %d\t%s\t%s\t%d\t%d\n", t.Count, t.Tool, joinRanks(r.Ranks), r.ByName, r.NotDiscovered)
			}
		}
		// The section shows only when calls were refused.
		if len(a.Refused) > 0 {
			fmt.Fprintln(tw, "\ncalls refused (a tool the run may not use is not named):")
			fmt.Fprintln(tw, "  TIMES\tREASON\tTOOL")
			for _, f := range a.Refused {
				tool := f.Tool
				if tool == "" {
					tool = "-"
				}
				fmt.Fprintf(tw, "  %d\t%s\t%s\n", f.Count, f.Reason, tool)
			}
		}
	}
	return tw.Flush()
}

// joinRanks lists ranks for the text report, "-" for none.
func joinRanks(ranks []int) string {
	if len(ranks) == 0 {
		return "-"
	}
	s := make([]string, len(ranks))
	for i, r := range ranks {
		s[i] = strconv.Itoa(r)
	}
	return strings.Join(s, " ")
}
