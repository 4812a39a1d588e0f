package registry

import (
	"fmt"
	"strings"
	"testing"
)

// deepPublish is a publish of about 4.1 MB: 415 tools whose payload
// schemas nest 990 levels deep, as registry/service's refusal benchmark
// sends it.
func deepPublish(name string) []byte {
	const tools, depth = 415, 988
	schema := `{"type":"object","properties":{"a":` + strings.Repeat(`{"items":`, depth) + `{}` + strings.Repeat(`}`, depth) + `}}`
	var b strings.Builder
	b.WriteString(`{"toolset":{"name":"` + name + `","tools":[`)
	for i := range tools {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"%s.t%03d","description":"d","payload":%s}`, name, i, schema)
	}
	b.WriteString(`]},"revision":"r1","endpoint":"https://tools.example/x"}`)
	return []byte(b.String())
}

// BenchmarkOutlinePublish measures outlining deepPublish, which the default
// limits refuse (32 levels), without the HTTP handler around it.
func BenchmarkOutlinePublish(b *testing.B) {
	body := deepPublish("records")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		out, err := OutlinePublish(body, DefaultSchemaLimits)
		if err != nil || out.Limit == nil {
			b.Fatalf("OutlinePublish = %+v, %v; want a limit", out, err)
		}
	}
}
