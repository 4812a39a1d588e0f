package catalogfile

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// Query is one request of a query set and the tools it needs.
type Query struct {
	// Text is the request.
	Text string
	// Gold names every catalog tool the request needs; never empty.
	Gold []string
	// ID identifies the request; may be empty.
	ID string
}

type lineQuery struct {
	Query *string  `json:"query"`
	Gold  []string `json:"gold"`
	ID    string   `json:"id"`
}

// ReadQueries reads a query set, JSON lines of {"query", "gold", "id"}.
// Every gold name must be a tool of the catalog, which known reports.
func ReadQueries(r io.Reader, known func(name string) bool) ([]Query, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading queries: %w", err)
	}
	var queries []Query
	err = eachLine(data, func(_ int, text []byte) error {
		var q lineQuery
		if err := decodeStrict(text, &q); err != nil {
			return err
		}
		switch {
		case q.Query == nil:
			return errors.New("missing \"query\"")
		case len(q.Gold) == 0:
			return errors.New("missing or empty \"gold\"")
		}
		for i, name := range q.Gold {
			if slices.Contains(q.Gold[:i], name) {
				return fmt.Errorf("gold tool %q listed twice", name)
			}
			if !known(name) {
				return fmt.Errorf("gold tool %q is not in the catalog", name)
			}
		}
		queries = append(queries, Query{Text: *q.Query, Gold: q.Gold, ID: q.ID})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(queries) == 0 {
		return nil, fmt.Errorf("%w: no queries", ErrMalformed)
	}
	return queries, nil
}
