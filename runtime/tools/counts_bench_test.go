package tools

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// deepSchema nests n objects, each with a count, through "properties".
func deepSchema(n int) []byte {
	return []byte(strings.Repeat(`{"type":"object","minProperties":1,"properties":{"a":`, n) +
		`{"type":"string","minLength":1}` + strings.Repeat(`}}`, n))
}

// wideSchema has n string properties, each with a count.
func wideSchema(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"p` + strconv.Itoa(i) + `":{"type":"string","maxLength":10}`)
	}
	b.WriteString(`}}`)
	return []byte(b.String())
}

// BenchmarkCompileSchema compiles schemas of many subschemas, each with
// a count keyword, and, apart, runs the check of their counts alone: its
// share of a compile.
func BenchmarkCompileSchema(b *testing.B) {
	for _, bc := range []struct {
		name   string
		schema []byte
	}{{"deep200", deepSchema(200)}, {"wide2000", wideSchema(2000)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CompileSchema(bc.schema); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"/counts", func(b *testing.B) {
			s := MustCompileSchema(bc.schema)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(bc.schema))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := checkCounts(doc, s.compiled); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
