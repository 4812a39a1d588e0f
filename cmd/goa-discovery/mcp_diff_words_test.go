package main

import "testing"

// TestDeclaredToolsMatch checks the agreement of mcp diff's line for a
// toolset that matches its server.
func TestDeclaredToolsMatch(t *testing.T) {
	for n, want := range map[int]string{
		1: "its 1 declared tool matches",
		2: "its 2 declared tools match",
		0: "its 0 declared tools match",
	} {
		if got := declaredToolsMatch(n); got != want {
			t.Errorf("declaredToolsMatch(%d) = %q, want %q", n, got, want)
		}
	}
}
