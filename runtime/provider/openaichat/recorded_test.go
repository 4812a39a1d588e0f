package openaichat

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// TestRecordedConversation plays the responses of testdata/responses,
// written in the documented shape of Chat Completions, through the adapter
// and keeps every request body as a golden file for the conformance check.
func TestRecordedConversation(t *testing.T) {
	var replies []openaitest.Reply
	for _, n := range []string{"search", "call", "answer"} {
		b, err := os.ReadFile(filepath.Join("testdata", "responses", n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		replies = append(replies, openaitest.Reply{Body: string(b)})
	}
	api := newFakeAPI(t, replies...)
	history := openaitest.RunLoop(t, api.client(), chatModel, openaitest.Catalog(t), openaitest.Start())
	last := history[len(history)-1]
	if last.Role != model.RoleAssistant || last.Text() != "Record r1 is late." {
		t.Fatalf("the conversation ends with %s %q", last.Role, last.Text())
	}
	for i := range 3 {
		golden.JSON(t, filepath.Join("testdata", fmt.Sprintf("recorded_request%d.json", i+1)), api.Body(i))
	}
}
