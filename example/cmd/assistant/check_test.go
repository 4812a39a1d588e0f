package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCheckReplay runs -check offline on each provider's recordings: every
// rendering makes its round trip and is reported.
func TestCheckReplay(t *testing.T) {
	tests := []struct {
		provider   string
		renderings []string
	}{
		{providerAnthropic, []string{"native", "emulated"}},
		{providerOpenAI, []string{"native", "emulated"}},
		{providerOpenAIChat, []string{"emulated"}},
	}
	for _, tt := range tests {
		t.Run(tt.provider, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runCommand(context.Background(), []string{"-check", "-replay-provider", tt.provider}, noEnv, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d, stderr:\n%s\nstdout:\n%s", code, stderr.String(), stdout.String())
			}
			out := stdout.String()
			for _, r := range tt.renderings {
				if !strings.Contains(out, "check "+r+": replaying recordings of "+tt.provider) {
					t.Errorf("no %s rendering reported:\n%s", r, out)
				}
			}
			if n := strings.Count(out, "  ok: "); n != len(tt.renderings) {
				t.Errorf("%d renderings ok, want %d:\n%s", n, len(tt.renderings), out)
			}
			if !strings.Contains(out, "found for ") || !strings.Contains(out, "request 2: ") {
				t.Errorf("the round trip is not reported:\n%s", out)
			}
		})
	}
}

// TestCheckLiveReportsFailure runs -check on the live path against the
// replay server: the native round trip takes the first two recordings, so
// the emulated one is answered with the recorded final answer, which holds
// no discovery call, and the check fails with exit status 1.
func TestCheckLiveReportsFailure(t *testing.T) {
	served := &requestLog{}
	serveRecordings(t, providerAnthropic, served)
	env := func(k string) string {
		if k == "ANTHROPIC_API_KEY" {
			return "test-key"
		}
		return ""
	}
	var stdout, stderr bytes.Buffer
	code := runCommand(context.Background(), []string{"-provider", "anthropic", "-check"}, env, &stdout, &stderr)
	out := stdout.String()
	if code != 1 || !strings.Contains(stderr.String(), "check failed: 1 of 2 renderings") {
		t.Fatalf("exit %d, stderr %q, want 1 and the failed count", code, stderr.String())
	}
	if !strings.Contains(out, "check native: asking anthropic model claude-sonnet-4-5") || !strings.Contains(out, "  ok: ") {
		t.Errorf("native round trip not reported ok:\n%s", out)
	}
	if !strings.Contains(out, "FAILED: the first answer holds no discovery call") {
		t.Errorf("emulated failure not reported:\n%s", out)
	}
	if n := len(served.all()); n != 3 {
		t.Errorf("%d requests reached the provider, want 3", n)
	}
}
