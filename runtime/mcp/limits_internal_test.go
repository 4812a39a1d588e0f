package mcp

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzExpandedNodes checks the bound on inlining for any document: within
// the limit, the inlined form has no more values than were counted; past
// it, the count stops just past the limit, whatever the document's
// references make of it.
func FuzzExpandedNodes(f *testing.F) {
	f.Add(`{"type":"object","properties":{"x":{"$ref":"#/$defs/a"}},"$defs":{"a":{"properties":{"p":{"$ref":"#/$defs/b"},"q":{"$ref":"#/$defs/b"}}},"b":{"enum":[1,2,3]}}}`, 20)
	f.Add(`{"$ref":"#/$defs/r","$defs":{"r":{"items":{"$ref":"#/$defs/r"}}}}`, 5)
	f.Add(`{"allOf":[{"$ref":"#/definitions/d","minLength":1}],"definitions":{"d":{"type":"string"}}}`, 3)
	f.Add(`[1,{"a":true}]`, 1)
	f.Fuzz(func(t *testing.T, doc string, limit int) {
		if limit < 1 || limit > 10_000 {
			return
		}
		v, err := decodeNumbers([]byte(doc))
		if err != nil {
			return
		}
		n, ok := expandedNodes(v, limit)
		if !ok {
			if n <= limit {
				t.Fatalf("refused at %d values, within the limit %d", n, limit)
			}
			return
		}
		if n > limit {
			t.Fatalf("accepted %d values, past the limit %d", n, limit)
		}
		if got := jsonValues(inlineRefs(v)); got > n {
			t.Fatalf("the inlined form has %d values, %d were counted", got, n)
		}
	})
}

// TestCapReader checks where the message counter starts a new message:
// at each newline over stdio, at an empty line in an SSE stream, never in
// a JSON body; reads of one byte at a time count alike.
func TestCapReader(t *testing.T) {
	cases := []struct {
		name          string
		in            string
		lines, events bool
		limit         int
		over          bool
		got           int64 // bytes counted when reading stopped
		gotOneByte    int64 // the same, reading one byte at a time
	}{
		{"lines within", "12345\n12345\n", true, false, 6, false, 0, 0},
		{"a line past", "12345\n1234567\n", true, false, 6, true, 8, 7},
		{"a line past at its newline", "12345\n123456\n", true, false, 6, true, 7, 7},
		{"events within", "data: 1\n\ndata: 2\n\n", false, true, 10, false, 0, 0},
		{"events with CRLF within", "data: 1\r\n\r\ndata: 2\r\n\r\n", false, true, 12, false, 0, 0},
		{"an event of many lines past", "data: 1\ndata: 2\n\n", false, true, 10, true, 16, 11},
		{"an event within at its empty line", "data: 1\n\n", false, true, 9, false, 0, 0},
		{"a body of newlines past", "{\n\n\n\n\n\n}", false, false, 6, true, 8, 7},
	}
	for _, tc := range cases {
		for _, oneByte := range []bool{false, true} {
			c := &messageCap{limit: tc.limit}
			var r io.Reader = &capReader{r: strings.NewReader(tc.in), cap: c, lines: tc.lines, events: tc.events}
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			_, err := io.Copy(&bytes.Buffer{}, r)
			want := tc.got
			if oneByte {
				want = tc.gotOneByte
			}
			if over := errors.Is(err, errMessageTooLarge); over != tc.over || c.got.Load() != want {
				t.Errorf("%s (one byte at a time %v): error %v, counted %d, want over %v at %d", tc.name, oneByte, err, c.got.Load(), tc.over, want)
			}
		}
	}
}

// BenchmarkCapReader reads a 1 MiB message through the counter: a JSON
// body, a stdio line and an SSE event.
func BenchmarkCapReader(b *testing.B) {
	msg := strings.Repeat("x", 1<<20)
	for _, tc := range []struct {
		name          string
		in            string
		lines, events bool
	}{{"body", msg, false, false}, {"line", msg + "\n", true, false}, {"event", "data: " + msg + "\n\n", false, true}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.in)))
			for b.Loop() {
				r := &capReader{r: strings.NewReader(tc.in), cap: &messageCap{limit: 2 << 20}, lines: tc.lines, events: tc.events}
				if _, err := io.Copy(io.Discard, r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
