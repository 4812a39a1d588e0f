package toolsearch

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// sweepChunked makes NewIndex cut the sweep of its catalogs into chunks of
// chunk postings and share them with helpers, on at least four goroutines
// running in parallel, for the rest of the test.
func sweepChunked(t *testing.T, chunk int) {
	t.Helper()
	saved := sweepChunk
	sweepChunk = chunk
	procs := runtime.GOMAXPROCS(max(4, runtime.GOMAXPROCS(0)))
	t.Cleanup(func() {
		sweepChunk = saved
		runtime.GOMAXPROCS(procs)
	})
}

// TestSweepInChunks checks that an index swept in chunks, with helpers, is
// the index of one sweep: on random catalogs, some malformed, the same error
// or the same field lengths and term weights.
func TestSweepInChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	catalogs := make([]CatalogCounts, 400)
	for i := range catalogs {
		catalogs[i] = randomCatalogCounts(rng)
	}
	type built struct {
		lengths [][numFields]int64
		scales  []toolScales
		idf     []float32
		err     string
	}
	build := func(cat CatalogCounts) built {
		ix, err := NewIndex(cat)
		if err != nil {
			return built{err: err.Error()}
		}
		return built{lengths: ix.lengths, scales: ix.scales, idf: ix.idf}
	}
	want := make([]built, len(catalogs))
	for i, cat := range catalogs {
		want[i] = build(cat)
	}
	malformed := 0
	for _, w := range want {
		if w.err != "" {
			malformed++
		}
	}
	if malformed < len(catalogs)/4 || malformed > len(catalogs)*3/4 {
		t.Fatalf("%d of %d random catalogs malformed: the test needs both kinds", malformed, len(catalogs))
	}
	for _, chunk := range []int{1, 2, 5} {
		t.Run(fmt.Sprintf("chunk=%d", chunk), func(t *testing.T) {
			sweepChunked(t, chunk)
			for i, cat := range catalogs {
				got := build(cat)
				if got.err != want[i].err {
					t.Errorf("catalog %d: error %q, want %q", i, got.err, want[i].err)
					continue
				}
				if !slices.Equal(got.lengths, want[i].lengths) || !slices.Equal(got.scales, want[i].scales) || !slices.Equal(got.idf, want[i].idf) {
					t.Errorf("catalog %d: lengths %v, want %v", i, got.lengths, want[i].lengths)
				}
			}
		})
	}
}

// TestNewIndexReportsFirstFault checks that of two faults in a catalog,
// NewIndex reports the first in order, a term's own (empty, repeated) before
// its postings', whether the sweep is shared or not.
func TestNewIndexReportsFirstFault(t *testing.T) {
	valid, tools := FieldCounts{Description: 1}, []CatalogTool{{Name: "a"}, {Name: "b"}}
	term := func(term string, postings ...ToolTerm) TermPostings { return TermPostings{Term: term, Tools: postings} }
	tests := []struct {
		name string
		cat  CatalogCounts
		want string
	}{
		{"repeated term with a tool out of range", CatalogCounts{Tools: tools, Terms: []TermPostings{
			term("x", ToolTerm{0, valid}), term("y", ToolTerm{0, valid}), term("x", ToolTerm{5, valid})}},
			`term "x" listed twice`},
		{"empty term without counts", CatalogCounts{Tools: tools, Terms: []TermPostings{
			term("x", ToolTerm{0, valid}), term("y", ToolTerm{0, valid}), term("", ToolTerm{0, FieldCounts{}})}},
			"empty term"},
		{"tools out of order before a repeated term", CatalogCounts{Tools: tools, Terms: []TermPostings{
			term("x", ToolTerm{0, valid}), term("y", ToolTerm{1, valid}, ToolTerm{0, valid}), term("x", ToolTerm{0, valid})}},
			`term "y": tool position 0 out of order`},
		{"repeated term before a negative count", CatalogCounts{Tools: tools, Terms: []TermPostings{
			term("x", ToolTerm{0, valid}), term("x", ToolTerm{0, valid}), term("z", ToolTerm{0, FieldCounts{Name: -1}})}},
			`term "x" listed twice`},
		{"no count before a tool out of range", CatalogCounts{Tools: tools, Terms: []TermPostings{
			term("x", ToolTerm{0, valid}), term("y", ToolTerm{1, FieldCounts{}}), term("z", ToolTerm{3, valid})}},
			`term "y": tool "b": counted in no field`},
		{"duplicate name before malformed terms", CatalogCounts{Tools: []CatalogTool{{Name: "a"}, {Name: "a"}}, Terms: []TermPostings{
			term("x", ToolTerm{0, valid}), term("y", ToolTerm{0, FieldCounts{}}), term("", ToolTerm{3, valid})}},
			`"a" names tools`},
	}
	for _, mode := range []string{"one sweep", "in chunks"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "in chunks" {
				sweepChunked(t, 1)
			}
			for _, tt := range tests {
				_, err := NewIndex(tt.cat)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("%s: NewIndex error = %v, want one saying %s", tt.name, err, tt.want)
				}
			}
		})
	}
}

// TestSweepHelpers checks when a build is helped: from two chunks, by no
// more goroutines than may run beside it nor than there are chunks to share.
func TestSweepHelpers(t *testing.T) {
	saved := sweepChunk
	sweepChunk = 2
	t.Cleanup(func() { sweepChunk = saved })
	term := func(postings int) TermPostings {
		tp := TermPostings{Term: "t"}
		for i := range postings {
			tp.Tools = append(tp.Tools, ToolTerm{Tool: int32(i), Counts: FieldCounts{Description: 1}})
		}
		return tp
	}
	tests := []struct {
		name  string
		terms []TermPostings
		procs int
		want  int
	}{
		{"no terms", nil, 4, 0},
		{"one chunk", []TermPostings{term(1)}, 4, 0},
		{"a chunk of one term however long", []TermPostings{term(9)}, 4, 0},
		{"two chunks", []TermPostings{term(2), term(1)}, 4, 1},
		{"one processor", []TermPostings{term(2), term(2), term(1)}, 1, 0},
		{"two processors", []TermPostings{term(2), term(2), term(1)}, 2, 1},
		{"many chunks", slices.Repeat([]TermPostings{term(2)}, 10), 16, maxSweepHelpers},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			procs := runtime.GOMAXPROCS(tt.procs)
			defer runtime.GOMAXPROCS(procs)
			if got := newSweep(tt.terms, 9).helpers(); got != tt.want {
				t.Errorf("helpers = %d, want %d", got, tt.want)
			}
		})
	}
}

// randomCatalogCounts returns a catalog of up to 30 tools and 40 terms, one
// time in two malformed in one of the ways NewIndex reports.
func randomCatalogCounts(rng *rand.Rand) CatalogCounts {
	var cat CatalogCounts
	tools := 1 + rng.IntN(30)
	for i := range tools {
		cat.Tools = append(cat.Tools, CatalogTool{Name: fmt.Sprintf("tool%d", i)})
	}
	for i := range 1 + rng.IntN(40) {
		// Letters only, or a value term, counted in no length.
		tp := TermPostings{Term: fmt.Sprintf("%c%c", 'a'+i%26, 'a'+i/26)}
		if rng.IntN(4) == 0 {
			tp.Term += "2024"
		}
		for tool := range tools {
			if rng.IntN(3) == 0 {
				var c FieldCounts
				for f := range rng.IntN(3) + 1 {
					_ = f
					c.add(Field(rng.IntN(numFields)))
				}
				tp.Tools = append(tp.Tools, ToolTerm{Tool: int32(tool), Counts: c})
			}
		}
		if len(tp.Tools) > 0 {
			cat.Terms = append(cat.Terms, tp)
		}
	}
	if rng.IntN(2) == 0 || len(cat.Terms) == 0 {
		return cat
	}
	// Break one thing, or two, anywhere.
	for range 1 + rng.IntN(2) {
		tp := &cat.Terms[rng.IntN(len(cat.Terms))]
		tt := &tp.Tools[rng.IntN(len(tp.Tools))]
		switch rng.IntN(7) {
		case 0:
			tp.Term = ""
		case 1:
			tp.Term = cat.Terms[rng.IntN(len(cat.Terms))].Term // may be itself: then fine
		case 2:
			tt.Tool = int32(tools)
		case 3:
			tt.Tool = -1
		case 4:
			tt.Counts = FieldCounts{}
		case 5:
			tt.Counts.Title = -1
		case 6:
			cat.Tools[rng.IntN(tools)].Alias = cat.Tools[rng.IntN(tools)].Name
		}
	}
	return cat
}
