package openai

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// recorded reads the responses under testdata/responses, written in the
// documented shapes of the Responses API.
func recorded(t *testing.T, names ...string) []reply {
	t.Helper()
	out := make([]reply, len(names))
	for i, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "responses", n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = reply{Body: string(b)}
	}
	return out
}

// TestRecordedConversations plays the responses of testdata/responses
// through the adapter on each rendering (native with reasoning items,
// native without storage with encrypted reasoning, emulated) and keeps
// every request body as a golden file for the conformance check.
func TestRecordedConversations(t *testing.T) {
	tests := []struct {
		name    string
		model   string
		opts    []Option
		replies []string
	}{
		{"native", nativeModel, nil, []string{"native_search", "native_call", "answer"}},
		{"native_without_storage", nativeModel, []Option{WithStore(false)}, []string{"encrypted_search", "encrypted_call", "answer"}},
		{"emulated", emulatedModel, nil, []string{"emulated_search", "emulated_call", "answer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, recorded(t, tt.replies...)...)
			history := openaitest.RunLoop(t, api.client(tt.opts...), tt.model, testCatalog(t), start())
			last := history[len(history)-1]
			if last.Role != model.RoleAssistant || last.Text() != "Record r1 is late." {
				t.Fatalf("the conversation ends with %s %q", last.Role, last.Text())
			}
			for i := range 3 {
				checkGolden(t, fmt.Sprintf("recorded_%s_request%d", tt.name, i+1), api.body(i))
			}
		})
	}
}
