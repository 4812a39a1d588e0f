package designtest

import (
	"os"
	"strings"
	"testing"
)

// MarkerLine returns the 1-based line of file that ends with the comment
// "// ERR <marker>". Design tests put the marker on the line an error must
// point at; the test fails when the marker is missing or not unique.
func MarkerLine(t testing.TB, file, marker string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("read design source: %v", err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// ERR "+marker) {
			if line != 0 {
				t.Fatalf("marker %q appears twice in %s", marker, file)
			}
			line = i + 1
		}
	}
	if line == 0 {
		t.Fatalf("marker %q not found in %s", marker, file)
	}
	return line
}
