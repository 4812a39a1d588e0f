package openaichat

import (
	"encoding/json"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaiwire"
)

// FuzzDecodeCompletion decodes arbitrary completion bodies: a valid
// response or an error, never a panic.
func FuzzDecodeCompletion(f *testing.F) {
	f.Add([]byte(completionJSON(answerMessage, "stop")))
	f.Add([]byte(completionJSON(callsMessage([3]string{"a", "tool_search", `{"query":"x"}`}), "tool_calls")))
	f.Add([]byte(completionJSON(callsMessage([3]string{"a", "get_time", `{`}), "length")))
	f.Fuzz(func(t *testing.T, body []byte) {
		var c sdk.ChatCompletion
		if err := json.Unmarshal(body, &c); err != nil {
			return
		}
		w := &wire{names: openaiwire.NewNameMap("request"), discovered: map[string]bool{}}
		out, err := w.decodeCompletion(&c)
		if err != nil {
			return
		}
		if err := out.Validate(); err != nil {
			t.Fatalf("decoded response does not validate: %v\n%s", err, body)
		}
	})
}
