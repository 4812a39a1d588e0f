package codegen_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	. "goa.design/goa/v3/dsl"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/codegen/internal/gomodtest"
	. "github.com/goa-discovery/goa-discovery/dsl"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
)

// toolsPerToolset is the size of every toolset of the benchmark designs.
const toolsPerToolset = 10

// benchWords make tool descriptions differ from tool to tool.
var benchWords = []string{"invoice", "customer", "shipment", "ledger", "refund", "contract", "ticket", "inventory", "payroll", "campaign", "forecast", "audit"}

// largeDesign returns a design of n toolsets of toolsPerToolset tools, each
// with typed arguments and a result, and n/10 agents that each use ten
// toolsets, deferring all of some and part of others.
func largeDesign(n int) func() {
	return func() {
		item := Type("Item", func() {
			Attribute("id", String, "Item identifier")
			Attribute("amount", Float64, "Amount", func() { Minimum(0) })
			Attribute("tags", ArrayOf(String), "Labels")
			Required("id")
		})
		toolsets := make([]any, n)
		for i := range n {
			toolsets[i] = Toolset(fmt.Sprintf("set%03d", i), func() {
				Description(fmt.Sprintf("Operations on %s records, group %d", benchWords[i%len(benchWords)], i))
				for j := range toolsPerToolset {
					w := benchWords[(i+j)%len(benchWords)]
					Tool(fmt.Sprintf("tool%02d", j), fmt.Sprintf("Find the %s of a %s by identifier and status", w, benchWords[j%len(benchWords)]), func() {
						Args(func() {
							Attribute("id", String, "Identifier of the "+w)
							Attribute("status", String, "Status", func() { Enum("open", "closed") })
							Attribute("limit", Int, "Most results", func() { Minimum(1); Maximum(100) })
							Required("id")
						})
						Return(ArrayOf(item))
					})
				}
			})
		}
		Service("bench", func() {
			for a := range n / 10 {
				Agent(fmt.Sprintf("agent%02d", a), "Work on a group of records.", func() {
					for k := range 10 {
						ts := toolsets[a*10+k]
						switch k % 3 {
						case 0:
							Use(ts, func() { Deferred() })
						case 1:
							Use(ts, func() { Deferred("tool03", "tool07") })
						default:
							Use(ts)
						}
					}
				})
			}
		})
	}
}

// BenchmarkGenerate measures the generation step that the design program
// runs once it is built: evaluating the design and generating its packages.
// Compare the sizes to see how it scales.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{100, 200} {
		design := largeDesign(n)
		b.Run(fmt.Sprintf("tools=%d", n*toolsPerToolset), func(b *testing.B) {
			start := cpuTime()
			defer func() { reportCPU(b, start) }()
			for b.Loop() {
				if _, err := designtest.Run(b, design); err != nil {
					b.Fatal(err)
				}
				if _, err := codegen.Generate(b.TempDir(), "example.com/bench/gen"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// reportCPU reports the CPU seconds per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric((cpuTime()-start).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// largeDesignSource is the source of largeDesign as a design package that
// the gen command runs: the same DSL at package level.
const largeDesignSource = `package design

import (
	"fmt"

	. "goa.design/goa/v3/dsl"

	. "github.com/goa-discovery/goa-discovery/dsl"
)

var words = []string{"invoice", "customer", "shipment", "ledger", "refund", "contract", "ticket", "inventory", "payroll", "campaign", "forecast", "audit"}

var _ = declare(%d)

func declare(n int) bool {
	item := Type("Item", func() {
		Attribute("id", String, "Item identifier")
		Attribute("amount", Float64, "Amount", func() { Minimum(0) })
		Attribute("tags", ArrayOf(String), "Labels")
		Required("id")
	})
	toolsets := make([]any, n)
	for i := range n {
		toolsets[i] = Toolset(fmt.Sprintf("set%%03d", i), func() {
			Description(fmt.Sprintf("Operations on %%s records, group %%d", words[i%%len(words)], i))
			for j := range 10 {
				w := words[(i+j)%%len(words)]
				Tool(fmt.Sprintf("tool%%02d", j), fmt.Sprintf("Find the %%s of a %%s by identifier and status", w, words[j%%len(words)]), func() {
					Args(func() {
						Attribute("id", String, "Identifier of the "+w)
						Attribute("status", String, "Status", func() { Enum("open", "closed") })
						Attribute("limit", Int, "Most results", func() { Minimum(1); Maximum(100) })
						Required("id")
					})
					Return(ArrayOf(item))
				})
			}
		})
	}
	Service("bench", func() {
		for a := range n / 10 {
			Agent(fmt.Sprintf("agent%%02d", a), "Work on a group of records.", func() {
				for k := range 10 {
					ts := toolsets[a*10+k]
					switch k %% 3 {
					case 0:
						Use(ts, func() { Deferred() })
					case 1:
						Use(ts, func() { Deferred("tool03", "tool07") })
					default:
						Use(ts)
					}
				}
			})
		}
	})
	return true
}
`

// buildCLI builds the goa-discovery command into a temporary directory.
func buildCLI(b *testing.B) string {
	b.Helper()
	cli := filepath.Join(b.TempDir(), "goa-discovery")
	build := exec.Command("go", "build", "-o", cli, "../cmd/goa-discovery")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build the CLI: %v\n%s", err, out)
	}
	return cli
}

// largeDesignModule returns a temporary module holding the design of n
// toolsets of toolsPerToolset tools in its design package, its go.mod
// completed from the module cache.
func largeDesignModule(b *testing.B, n int) *gomodtest.Module {
	b.Helper()
	mod := gomodtest.New(b, "..", "example.com/bench")
	designDir := filepath.Join(mod.Dir, "design")
	if err := os.MkdirAll(designDir, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(designDir, "design.go"), fmt.Appendf(nil, largeDesignSource, n), 0o644); err != nil {
		b.Fatal(err)
	}
	mod.Go(b, "build", "./...")
	return mod
}

// BenchmarkGenCLI runs "goa-discovery gen" end to end on a design of 1,000
// tools in 100 toolsets (and twice that) in a temporary module: resolving the
// design, building the generator program (with a warm build cache after the
// first iteration), running it and writing the packages.
func BenchmarkGenCLI(b *testing.B) {
	cli := buildCLI(b)
	for _, n := range []int{100, 200} {
		b.Run(fmt.Sprintf("tools=%d", n*toolsPerToolset), func(b *testing.B) {
			mod := largeDesignModule(b, n)
			start := cpuTime()
			defer func() { reportCPU(b, start) }()
			for b.Loop() {
				cmd := exec.Command(cli, "gen", "-o", "gen", "example.com/bench/design")
				cmd.Dir = mod.Dir
				cmd.Env = gomodtest.Env()
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("gen: %v\n%.2000s", err, out)
				}
			}
		})
	}
}

// BenchmarkGenProgram measures the generation step alone, the part of
// "goa-discovery gen" after the design program is built: running the kept
// generator program (process start, design evaluation, generation and
// writing) on designs of 10, 1,000 and 2,000 tools.
func BenchmarkGenProgram(b *testing.B) {
	cli := buildCLI(b)
	for _, n := range []int{1, 100, 200} {
		b.Run(fmt.Sprintf("tools=%d", n*toolsPerToolset), func(b *testing.B) {
			g := keptGenerator(b, cli, n)
			var cpu time.Duration
			for b.Loop() {
				cpu += g.run(b).cpu
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// BenchmarkGenProgramDoubling runs the generation step on the designs of
// 1,000 and 2,000 tools back to back, once per iteration, so that each pair
// meets the same machine load. It reports the median wall and CPU seconds of
// each size and the medians of the pairs' ratios: doubling the design must
// less than double the generation step.
func BenchmarkGenProgramDoubling(b *testing.B) {
	cli := buildCLI(b)
	small, large := keptGenerator(b, cli, 100), keptGenerator(b, cli, 200)
	var wall, cpu [2][]float64
	var wallRatio, cpuRatio []float64
	for b.Loop() {
		s, l := small.run(b), large.run(b)
		wall[0], wall[1] = append(wall[0], s.wall.Seconds()), append(wall[1], l.wall.Seconds())
		cpu[0], cpu[1] = append(cpu[0], s.cpu.Seconds()), append(cpu[1], l.cpu.Seconds())
		wallRatio = append(wallRatio, l.wall.Seconds()/s.wall.Seconds())
		cpuRatio = append(cpuRatio, l.cpu.Seconds()/s.cpu.Seconds())
	}
	b.ReportMetric(median(wall[0]), "s-1000")
	b.ReportMetric(median(wall[1]), "s-2000")
	b.ReportMetric(median(cpu[0]), "cpu-s-1000")
	b.ReportMetric(median(cpu[1]), "cpu-s-2000")
	b.ReportMetric(median(wallRatio), "wall-ratio")
	b.ReportMetric(median(cpuRatio), "cpu-ratio")
}

// generator is a kept generator program and the module of its design.
type generator struct {
	program, dir, outDir string
}

// genRun is the wall and CPU time of one run of a generator program.
type genRun struct {
	wall, cpu time.Duration
}

// keptGenerator writes the design of n toolsets in a temporary module, runs
// "goa-discovery gen --debug" on it once (generating its packages and
// keeping the generator program) and returns that program.
func keptGenerator(b *testing.B, cli string, n int) *generator {
	b.Helper()
	mod := largeDesignModule(b, n)
	cmd := exec.Command(cli, "gen", "--debug", "-o", "gen", "example.com/bench/design")
	cmd.Dir = mod.Dir
	cmd.Env = gomodtest.Env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("gen: %v\n%.2000s", err, out)
	}
	_, kept, ok := strings.Cut(string(out), "kept generator program in ")
	if !ok {
		b.Fatalf("gen --debug did not keep its program:\n%.2000s", out)
	}
	program := filepath.Join(strings.TrimSpace(kept), "generator")
	b.Cleanup(func() { os.RemoveAll(filepath.Dir(program)) })
	return &generator{program: program, dir: mod.Dir, outDir: filepath.Join(mod.Dir, "gen")}
}

// run runs the generator program into its existing output, where unchanged
// files are not rewritten.
func (g *generator) run(b *testing.B) genRun {
	b.Helper()
	cmd := exec.Command(g.program, "--output="+g.outDir, "--import-path=example.com/bench/gen")
	cmd.Dir = g.dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(start)
	if err != nil {
		b.Fatalf("generator: %v\n%.2000s", err, out)
	}
	return genRun{wall: wall, cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
}

// median returns the median of values.
func median(values []float64) float64 {
	v := slices.Sorted(slices.Values(values))
	if len(v)%2 == 0 {
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return v[len(v)/2]
}
