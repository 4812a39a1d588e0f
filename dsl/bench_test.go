package dsl_test

import (
	"strconv"
	"testing"

	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/expr"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// largeDesign declares toolsets × tools tools and one agent per toolset that
// defers every other tool by name.
func largeDesign(toolsets, tools int) func() {
	return func() {
		sets := make([]*expr.ToolsetExpr, toolsets)
		for i := range sets {
			sets[i] = Toolset("toolset_"+strconv.Itoa(i), func() {
				for j := 0; j < tools; j++ {
					Tool("tool_"+strconv.Itoa(j), "Tool number "+strconv.Itoa(j), func() {
						Args(func() { Attribute("query", String) })
					})
				}
			})
		}
		Service("svc", func() {
			for i, ts := range sets {
				Agent("agent_"+strconv.Itoa(i), "An agent.", func() {
					Use(ts, func() {
						for j := 0; j < tools; j += 2 {
							Deferred("tool_" + strconv.Itoa(j))
						}
					})
				})
			}
		})
	}
}

func BenchmarkRunDesign(b *testing.B) {
	for _, size := range []struct{ toolsets, tools int }{{10, 20}, {50, 200}} {
		b.Run(strconv.Itoa(size.toolsets)+"x"+strconv.Itoa(size.tools), func(b *testing.B) {
			design := largeDesign(size.toolsets, size.tools)
			for b.Loop() {
				if _, err := designtest.Run(b, design); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
