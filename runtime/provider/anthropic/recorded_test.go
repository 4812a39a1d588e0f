package anthropic

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// recorded reads the responses under testdata/responses, written in the
// documented shapes of the Messages API.
func recorded(t *testing.T, names ...string) []reply {
	t.Helper()
	out := make([]reply, len(names))
	for i, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "responses", n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		out[i] = reply{body: string(b)}
	}
	return out
}

// TestRecordedConversations plays the responses of testdata/responses
// through the adapter: client search with thinking, hosted search finished
// in one response, and hosted search paused and continued. Every request
// body is kept as a golden file, so the conformance check holds them too.
func TestRecordedConversations(t *testing.T) {
	tests := []struct {
		name     string
		opts     []Option
		replies  []string
		requests int
		final    string
	}{
		{"client_search", nil, []string{"client_search", "call", "answer"}, 3, "Invoice i1 is refunded."},
		{"hosted_finished", []Option{WithHostedSearch(SearchBM25)}, []string{"hosted_finished"}, 1,
			"I can refund invoices with billing_refund; tell me which invoice and I will do it."},
		{"hosted_paused", []Option{WithHostedSearch(SearchRegex)}, []string{"hosted_paused", "hosted_continued", "answer"}, 3, "Invoice i1 is refunded."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api := newFakeAPI(t, recorded(t, tt.replies...)...)
			c := api.client(tt.opts...)
			history := runLoop(t, c, nativeModel, 5)
			last := history[len(history)-1]
			if last.Role != model.RoleAssistant || last.Text() != tt.final {
				t.Fatalf("the conversation ends with %s %q, want the answer %q", last.Role, last.Text(), tt.final)
			}
			if n := api.requests(); n != tt.requests {
				t.Fatalf("%d requests, want %d", n, tt.requests)
			}
			for i := range tt.requests {
				checkGolden(t, fmt.Sprintf("recorded_%s_request%d", tt.name, i+1), api.body(i))
			}
			if err := model.ValidateMessages(history); err != nil {
				t.Fatal(err)
			}
		})
	}
}
