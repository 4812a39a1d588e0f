package service

import (
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// FuzzParseCursor feeds arbitrary cursors, as a client may send them, to
// the page cursor parser: no panic, every refusal a 4xx registry error,
// and an accepted cursor names this instance and generation and a page
// after the first.
func FuzzParseCursor(f *testing.F) {
	s := &Service{instance: "0123456789abcdef"}
	f.Add(cursor{instance: s.instance, generation: 7, index: 3}.String(), "", uint64(7))
	f.Add(cursor{instance: s.instance, generation: 7, index: 3, refs: "abcd"}.String(), "abcd", uint64(7))
	f.Add("x.1.2.", "", uint64(1))
	f.Add("....", "", uint64(0))
	f.Fuzz(func(t *testing.T, text, refs string, generation uint64) {
		index, err := s.parseCursor(text, refs, s.instance, generation)
		if err != nil {
			var e *registry.Error
			if !errors.As(err, &e) || e.Code.Status() < 400 || e.Code.Status() >= 500 {
				t.Fatalf("refusal %v is not a 4xx registry error", err)
			}
			return
		}
		if index <= 0 {
			t.Fatalf("accepted cursor %q of page index %d", text, index)
		}
		again := cursor{instance: s.instance, generation: generation, index: index, refs: refs}.String()
		if i, err := s.parseCursor(again, refs, s.instance, generation); err != nil || i != index {
			t.Fatalf("cursor %q of the accepted %q does not parse back: %d, %v", again, text, i, err)
		}
	})
}
