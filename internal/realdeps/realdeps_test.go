package realdeps

import "testing"

func TestParse(t *testing.T) {
	tests := []struct {
		text, component, why string
		ok                   bool
	}{
		{Message("redis-server", "GOA_DISCOVERY_REDIS_URL is not set") + " (scripts/test-deps installs it)", "redis-server", "GOA_DISCOVERY_REDIS_URL is not set", true},
		{"    realredis_test.go:30: " + Message("node", "node is not on PATH") + "\n", "node", "node is not on PATH", true},
		{Message("tmpfs mount", "mount: permission denied"), "tmpfs mount", "mount: permission denied", true},
		{"skipped: 100,000 tools", "", "", false},
		{Marker + "no reason", "", "", false},
	}
	for _, tt := range tests {
		component, why, ok := Parse(tt.text)
		if component != tt.component || why != tt.why || ok != tt.ok {
			t.Errorf("Parse(%q) = %q, %q, %v; want %q, %q, %v", tt.text, component, why, ok, tt.component, tt.why, tt.ok)
		}
	}
}
