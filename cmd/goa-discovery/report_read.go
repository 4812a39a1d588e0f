package main

// Reading stored runs for the report: each file holds runtime.RunState
// records as the runtime encodes them (encoding/json of a RunState, as
// RunState's doc says: "plain data that encodes to JSON and back"), one
// after another; a directory stands for its *.json files. Decoding is
// strict: an unknown field, a history that discovery.ValidateHistory
// refuses or a record without an id or agent fails the whole report, naming
// the file and the record.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/discovery"
)

// errNoRuns is returned when the inputs hold no run.
var errNoRuns = errors.New("no stored run in the input")

// readRunFiles reads the runs of every path: a file, or a directory whose
// *.json files are read in name order.
func readRunFiles(paths []string) ([]*runtime.RunState, error) {
	var runs []*runtime.RunState
	for _, p := range paths {
		files := []string{p}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if info.IsDir() {
			if files, err = filepath.Glob(filepath.Join(p, "*.json")); err != nil {
				return nil, err
			}
			slices.Sort(files)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			got, err := decodeRuns(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			runs = append(runs, got...)
		}
	}
	if len(runs) == 0 {
		return nil, errNoRuns
	}
	// A run read twice would count twice.
	seen := make(map[string]bool, len(runs))
	for _, s := range runs {
		if seen[s.ID] {
			return nil, fmt.Errorf("run %q is stored more than once", s.ID)
		}
		seen[s.ID] = true
	}
	return runs, nil
}

// decodeRuns decodes the run records of one file, strictly.
func decodeRuns(data []byte) ([]*runtime.RunState, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var runs []*runtime.RunState
	for i := 1; ; i++ {
		var s runtime.RunState
		err := dec.Decode(&s)
		if errors.Is(err, io.EOF) {
			return runs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("run record %d: %w", i, err)
		}
		if err := checkRun(&s); err != nil {
			return nil, fmt.Errorf("run record %d: %w", i, err)
		}
		runs = append(runs, &s)
	}
}

// checkRun refuses a record the runtime could not have written.
func checkRun(s *runtime.RunState) error {
	if s.ID == "" || s.Agent == "" {
		return errors.New("a run needs an id and an agent")
	}
	if err := discovery.ValidateHistory(s.Messages); err != nil {
		return fmt.Errorf("run %q: %w", s.ID, err)
	}
	return nil
}
