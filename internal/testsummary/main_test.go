package main

import (
	"strings"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/realdeps"
)

func TestSummarize(t *testing.T) {
	skip := func(pkg, test, msg string) string {
		return `{"Action":"run","Package":"` + pkg + `","Test":"` + test + `"}
{"Action":"output","Package":"` + pkg + `","Test":"` + test + `","Output":"    x_test.go:1: ` + msg + `\n"}
{"Action":"skip","Package":"` + pkg + `","Test":"` + test + `"}
`
	}
	redis := realdeps.Message("redis-server", "GOA_DISCOVERY_REDIS_URL is not set")
	tests := []struct {
		name, in string
		want     []string // lines of the output, in order
		absent   []string // text that must not be printed
	}{
		{
			name: "passing package, no skips",
			in: `{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Output":"PASS\n"}
{"Action":"output","Package":"p","Output":"ok  \tp\t0.1s\n"}
`,
			want:   []string{"ok  \tp\t0.1s"},
			absent: []string{"SKIPPED", "PASS\n", "=== RUN"},
		},
		{
			name: "a failed test's output is printed",
			in: `{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: got 1, want 2\n"}
{"Action":"fail","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.2s\n"}
`,
			want: []string{"    b_test.go:9: got 1, want 2", "FAIL\tp\t0.2s"},
		},
		{
			name: "skips of real components end the run in one line",
			in: skip("a", "TestR1", redis) + skip("a", "TestR2", redis) + skip("b", "TestR3", redis) +
				skip("b", "TestM", realdeps.Message("npm MCP servers", "GOA_DISCOVERY_MCP_SERVERS is not set")) +
				skip("b", "TestShort", "left out with -short"),
			want: []string{"SKIPPED, real components absent: npm MCP servers (GOA_DISCOVERY_MCP_SERVERS is not set): 1 test in 1 package; redis-server (GOA_DISCOVERY_REDIS_URL is not set): 3 tests in 2 packages. scripts/test-deps installs them."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			if err := summarize(strings.NewReader(tt.in), &out); err != nil {
				t.Fatal(err)
			}
			got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("printed:\n%s\nwant:\n%s", out.String(), strings.Join(tt.want, "\n"))
			}
			for _, a := range tt.absent {
				if strings.Contains(out.String(), a) {
					t.Errorf("printed %q", a)
				}
			}
		})
	}
}
