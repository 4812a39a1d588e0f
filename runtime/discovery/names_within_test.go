package discovery

import (
	"strings"
	"testing"
)

func TestPortableNameWithin(t *testing.T) {
	long := strings.Repeat("a", 70)
	cases := []struct {
		name, in string
		max      int
		want     string
	}{
		{"portable and short stays", "read_file", 64, "read_file"},
		{"dots become underscores", "github.create_issue", 64, "github_create_issue"},
		{"slashes become underscores", "repo/list", 64, "repo_list"},
		{"fits exactly", strings.Repeat("b", 64), 64, strings.Repeat("b", 64)},
		{"max out of range is MaxNameLength", long, 4, long},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := PortableNameWithin(tc.in, tc.max); got != tc.want {
				t.Errorf("PortableNameWithin(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
			}
		})
	}
	got := PortableNameWithin(long, 64)
	if len(got) != 64 || !strings.HasPrefix(got, strings.Repeat("a", 55)+"_") || !IsPortable(got) {
		t.Errorf("PortableNameWithin(70 bytes, 64) = %q (%d bytes), want 55 bytes, '_' and 8 hex digits", got, len(got))
	}
	if other := PortableNameWithin(long+"z", 64); other == got {
		t.Errorf("two long names share the shortened name %q", got)
	}
	if PortableNameWithin(long, MaxNameLength) != PortableName(long) {
		t.Error("PortableNameWithin at MaxNameLength differs from PortableName")
	}
}
