package openaichat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

const chatModel = "gpt-4.1"

// fakeAPI is the Chat Completions test double.
type fakeAPI struct{ *openaitest.Server }

func newFakeAPI(t *testing.T, replies ...openaitest.Reply) fakeAPI {
	t.Helper()
	return fakeAPI{openaitest.New(t, "/chat/completions", replies...)}
}

// client returns a Client talking to the fake, without retries.
func (f fakeAPI) client(opts ...Option) *Client {
	base := []Option{WithBaseURL(f.URL()), WithAPIKey("test-key"), WithRequestOptions(option.WithMaxRetries(0))}
	return New(append(base, opts...)...)
}

const usageJSON = `"usage":{"prompt_tokens":120,"completion_tokens":20,"total_tokens":140,"prompt_tokens_details":{"cached_tokens":100},"completion_tokens_details":{"reasoning_tokens":8}}`

// completionJSON is a completion whose one choice has the given message
// and finish reason.
func completionJSON(message, finish string) string {
	return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"message":%s,"finish_reason":%q,"logprobs":null}],%s}`, chatModel, message, finish, usageJSON)
}

// callsMessage is an assistant message calling functions, each given as
// id, name, arguments.
func callsMessage(calls ...[3]string) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, fmt.Sprintf(`{"id":%q,"type":"function","function":{"name":%q,"arguments":%q}}`, c[0], c[1], c[2]))
	}
	return `{"role":"assistant","content":null,"refusal":null,"tool_calls":[` + strings.Join(parts, ",") + `]}`
}

const answerMessage = `{"role":"assistant","content":"Record r1 is late.","refusal":null}`

// loopReplies are the answers of a discover -> call -> answer loop.
func loopReplies() []openaitest.Reply {
	return []openaitest.Reply{
		{Body: completionJSON(callsMessage([3]string{"call_s1", "tool_search", `{"query":"look up a record"}`}), "tool_calls")},
		{Body: completionJSON(callsMessage([3]string{"call_f1", "records_lookup", `{"id": "r1"}`}), "tool_calls")},
		{Body: completionJSON(answerMessage, "stop")},
	}
}
