package anthropic

import "testing"

func TestHostedID(t *testing.T) {
	tests := []struct{ id, want string }{
		{"srvtoolu_01ABC", "srvtoolu_01ABC"},
		{"toolu_d1", "srvtoolu_toolu_d1"},
		{"call_9x-Y.z", "srvtoolu_call_9x_Y_z"},
		{"", "srvtoolu_"},
	}
	for _, tt := range tests {
		if got := hostedID(tt.id); got != tt.want {
			t.Errorf("hostedID(%q) = %q, want %q", tt.id, got, tt.want)
		}
	}
}
