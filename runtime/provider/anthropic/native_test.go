package anthropic

import (
	"regexp"
	"testing"
)

// TestCallIDs checks that the ids of calls made on other providers are
// rewritten into the forms the Messages API accepts, the same way every
// time, keeping distinct ids distinct, and that legal ids go out unchanged.
func TestCallIDs(t *testing.T) {
	toolUse := regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	serverToolUse := regexp.MustCompile(`^srvtoolu_[a-zA-Z0-9_]+$`)
	tests := []struct{ id, call, hosted string }{
		{"toolu_01ABC", "toolu_01ABC", "srvtoolu_toolu_01ABC"},
		{"srvtoolu_01ABC", "srvtoolu_01ABC", "srvtoolu_01ABC"},
		{"call-9x_Y", "call-9x_Y", "srvtoolu_call_9x_Y_" + hash8("call-9x_Y")},
		{"functions.lookup:0", "functions_lookup_0_" + hash8("functions.lookup:0"), "srvtoolu_functions_lookup_0_" + hash8("functions.lookup:0")},
		{"srvtoolu_a-b", "srvtoolu_a-b", "srvtoolu_srvtoolu_a_b_" + hash8("srvtoolu_a-b")},
		{"é", "___" + hash8("é"), "srvtoolu____" + hash8("é")}, // two bytes, then the hash
	}
	for _, tt := range tests {
		call, hosted := callID(tt.id), hostedID(tt.id)
		if call != tt.call || hosted != tt.hosted {
			t.Errorf("callID, hostedID(%q) = %q, %q, want %q, %q", tt.id, call, hosted, tt.call, tt.hosted)
		}
		if !toolUse.MatchString(call) || !serverToolUse.MatchString(hosted) {
			t.Errorf("ids of %q: %q, %q do not match the provider's patterns", tt.id, call, hosted)
		}
	}
	for _, pair := range [][2]string{{"a.b", "a:b"}, {"a.b", "a_b"}, {"x-1", "x.1"}} {
		if callID(pair[0]) == callID(pair[1]) || hostedID(pair[0]) == hostedID(pair[1]) {
			t.Errorf("ids %q and %q are rewritten to one id", pair[0], pair[1])
		}
	}
}

func hash8(id string) string {
	s := rewriteID(id, true)
	return s[len(s)-8:]
}
