package toolsearch

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Building an index from a catalog's counts reads every posting once, to
// check it and to add it to the lengths of its tool's fields: a sweep over
// all the counts, most of the cost of building a large catalog, memory-bound
// and scattered over the tools. [NewIndex] shares it, chunk by chunk of
// terms, with up to [maxSweepHelpers] helper goroutines when the catalog has
// several chunks and the program may run goroutines in parallel, and joins
// them once it has hashed the names and terms itself. Each sweeper sums into
// lengths of its own, added up at the end: sums of integers, so the lengths,
// and every score, are those of one sweep. A malformed catalog fails with the
// error that checking it term by term in order gives.

// sweepChunk is the number of postings from which a chunk of terms ends; a
// catalog of fewer than two chunks is swept without helpers. Tests lower it.
var sweepChunk = 1 << 15

// maxSweepHelpers bounds the goroutines that help a build sweep: the sweep
// is bound by memory, which a few cores saturate.
const maxSweepHelpers = 3

// sweep hands out the chunks of a catalog's terms to its sweepers.
type sweep struct {
	terms  []TermPostings
	tools  int
	chunks []int // the first term of each chunk, then len(terms)
	next   atomic.Int64
}

// newSweep cuts terms into chunks of about sweepChunk postings.
func newSweep(terms []TermPostings, tools int) *sweep {
	s := &sweep{terms: terms, tools: tools, chunks: []int{0}}
	postings := 0
	for t := range terms {
		if postings += len(terms[t].Tools); postings >= sweepChunk && t+1 < len(terms) {
			s.chunks = append(s.chunks, t+1)
			postings = 0
		}
	}
	s.chunks = append(s.chunks, len(terms))
	return s
}

// helpers returns how many goroutines should help sweep.
func (s *sweep) helpers() int {
	return max(0, min(runtime.GOMAXPROCS(0)-1, len(s.chunks)-2, maxSweepHelpers))
}

// run sweeps chunk first (none when it is negative), then the chunks not yet
// taken until none is left, adding their counts to lengths, and returns the
// first term of its chunks whose postings are malformed, or len(s.terms).
func (s *sweep) run(first int, lengths [][numFields]int64) int {
	bad := len(s.terms)
	for c := first; ; c = int(s.next.Add(1) - 1) {
		if c >= len(s.chunks)-1 {
			return bad
		}
		if c < 0 {
			continue
		}
		for t := s.chunks[c]; t < s.chunks[c+1] && t < bad; t++ {
			if !sumPostings(&s.terms[t], s.tools, lengths) {
				bad = t
			}
		}
	}
}

// stop leaves the chunks not yet taken unswept (a helper still sweeps its
// first).
func (s *sweep) stop() { s.next.Store(int64(len(s.chunks))) }

// sumPostings checks the postings of a term in a catalog of n tools and adds
// their counts to the lengths of the tools' fields (none for a value term,
// see [isValueTerm]). It reports whether the postings are well formed: tool
// positions in range and increasing, counts non-negative and one at least
// positive.
func sumPostings(tp *TermPostings, n int, lengths [][numFields]int64) bool {
	counted := !isValueTerm(tp.Term)
	prev := int32(-1)
	for j := range tp.Tools {
		tt := &tp.Tools[j]
		if tt.Tool <= prev || int(tt.Tool) >= n || !tt.Counts.valid() {
			return false
		}
		prev = tt.Tool
		if counted {
			tt.Counts.addTo(&lengths[tt.Tool])
		}
	}
	return true
}

// postingsError explains why the postings of a term are malformed, in a
// catalog whose tools have the given names.
func postingsError(tp *TermPostings, names []string) error {
	prev := int32(-1)
	for j := range tp.Tools {
		tt := &tp.Tools[j]
		if tt.Tool <= prev || int(tt.Tool) >= len(names) {
			return fmt.Errorf("%w: term %q: tool position %d out of order or range [0, %d)", ErrInvalidDocument, tp.Term, tt.Tool, len(names))
		}
		prev = tt.Tool
		if !tt.Counts.valid() {
			return fmt.Errorf("%w: term %q: tool %q: %w", ErrInvalidDocument, tp.Term, names[tt.Tool], tt.Counts.invalid())
		}
	}
	panic("toolsearch: postings reported malformed are not")
}

// sumLengths sweeps the postings of a catalog of n tools, with helpers as
// [sweep] says, while meanwhile runs on the calling goroutine before it
// joins them; it returns the lengths of the tools' fields and the first term
// whose postings are malformed (len(terms) when none is). When meanwhile
// fails, the sweep stops and sumLengths returns its error.
func sumLengths(terms []TermPostings, n int, meanwhile func() error) ([][numFields]int64, int, error) {
	s := newSweep(terms, n)
	helpers := s.helpers()
	helped := make([][][numFields]int64, helpers)
	bad := make([]int, helpers)
	// Helper h sweeps chunk h first, so that every helper started sweeps,
	// however long the caller takes to join; the rest go to whoever is free.
	s.next.Store(int64(helpers))
	var wg sync.WaitGroup
	for h := range helpers {
		wg.Go(func() {
			helped[h] = make([][numFields]int64, n)
			bad[h] = s.run(h, helped[h])
		})
	}
	if err := meanwhile(); err != nil {
		s.stop()
		wg.Wait()
		return nil, 0, err
	}
	lengths := make([][numFields]int64, n)
	first := s.run(-1, lengths)
	wg.Wait()
	for h := range helpers {
		first = min(first, bad[h])
		for i := range lengths {
			for f := range numFields {
				lengths[i][f] += helped[h][i][f]
			}
		}
	}
	return lengths, first, nil
}
