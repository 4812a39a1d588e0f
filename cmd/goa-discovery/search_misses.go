package main

// The requests of a query set that search misses: those whose top 5 holds
// none of their gold tools, each with the top 5 it got, so that a user sees
// what a catalog's descriptions fail to say; a request that finds nothing
// carries the note a discovery answer gives for it (noMatchNote), such as
// that it names nothing searchable.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/goa-discovery/goa-discovery/internal/catalogfile"
	"github.com/goa-discovery/goa-discovery/runtime/toolsearch"
)

// missedQuery is a request whose top 5 holds none of its gold tools.
type missedQuery struct {
	Query string   `json:"query"`
	ID    string   `json:"id,omitempty"`
	Gold  []string `json:"gold"`
	Top   []string `json:"top"`
	// Note is the discovery answer's note when Top is empty.
	Note string `json:"note,omitempty"`
}

// missedQueries ranks every query's top evalDepth and returns those that
// miss, in query set order.
func missedQueries(ctx context.Context, search searcher, queries []catalogfile.Query) ([]missedQuery, error) {
	var misses []missedQuery
	results := make([]toolsearch.Result, 0, evalDepth)
	for _, q := range queries {
		var err error
		if results, err = search(ctx, results[:0], q.Text, evalDepth); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(results, func(r toolsearch.Result) bool { return slices.Contains(q.Gold, r.Name) }) {
			continue
		}
		top := make([]string, len(results))
		for i, r := range results {
			top[i] = r.Name
		}
		m := missedQuery{Query: q.Text, ID: q.ID, Gold: q.Gold, Top: top}
		if len(top) == 0 {
			if m.Note, err = noMatchNote(q.Text); err != nil {
				return nil, err
			}
		}
		misses = append(misses, m)
	}
	return misses, nil
}

// writeMissesText lists the misses, each request with its gold tools and
// the top 5 it got, or the note on why it found nothing.
func writeMissesText(w io.Writer, misses []missedQuery, queries int) error {
	if _, err := fmt.Fprintf(w, "missed: %d of %d queries\n", len(misses), queries); err != nil {
		return err
	}
	for _, m := range misses {
		top := "none\n  note: " + m.Note
		if len(m.Top) > 0 {
			top = strings.Join(m.Top, ", ")
		}
		if _, err := fmt.Fprintf(w, "%q\n  gold: %s\n  top:  %s\n", m.Query, strings.Join(m.Gold, ", "), top); err != nil {
			return err
		}
	}
	return nil
}

// writeMissesJSON writes one JSON object a missed request.
func writeMissesJSON(w io.Writer, misses []missedQuery) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, m := range misses {
		if m.Top == nil {
			m.Top = []string{}
		}
		if err := enc.Encode(m); err != nil {
			return err
		}
	}
	return nil
}
