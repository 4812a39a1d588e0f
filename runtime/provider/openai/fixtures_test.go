package openai

import (
	"fmt"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/discovery"
	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

const (
	nativeModel   = "gpt-5.4"
	emulatedModel = "gpt-4.1"
)

// The fixtures are shared with the Chat Completions adapter's tests.

func testCatalog(t testing.TB) *discovery.Catalog { return openaitest.Catalog(t) }

func prepare(t testing.TB, c *Client, modelID string, history []model.Message, cat *discovery.Catalog) *model.Request {
	t.Helper()
	return openaitest.Prepare(t, c, modelID, history, cat)
}

func runLoop(t testing.TB, c *Client, modelID string, cat *discovery.Catalog, history []model.Message) []model.Message {
	t.Helper()
	return openaitest.RunLoop(t, c, modelID, cat, history)
}

func start() []model.Message { return openaitest.Start() }

func stripMeta(msgs []model.Message) []model.Message { return openaitest.StripMeta(msgs) }

const idParams = openaitest.IDParams

const usageJSON = `"usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":100},"output_tokens":20,"output_tokens_details":{"reasoning_tokens":8},"total_tokens":140}`

// responseJSON is a completed response with the given output items.
func responseJSON(modelID string, items ...string) string {
	out := "["
	for i, it := range items {
		if i > 0 {
			out += ","
		}
		out += it
	}
	return fmt.Sprintf(`{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":%q,"output":%s],%s}`, modelID, out, usageJSON)
}

const (
	reasoningItem  = `{"type":"reasoning","id":"rs_1","summary":[]}`
	searchCallItem = `{"type":"tool_search_call","id":"tsc_1","call_id":"call_s1","execution":"client","status":"completed","arguments":{"query":"look up a record"}}`
	nsCallItem     = `{"type":"function_call","id":"fc_1","call_id":"call_f1","namespace":"records","name":"lookup","arguments":"{\"id\": \"r1\"}","status":"completed"}`
	emuSearchItem  = `{"type":"function_call","id":"fc_0","call_id":"call_s1","name":"tool_search","arguments":"{\"query\":\"look up a record\"}","status":"completed"}`
	flatCallItem   = `{"type":"function_call","id":"fc_1","call_id":"call_f1","name":"records_lookup","arguments":"{\"id\": \"r1\"}","status":"completed"}`
	answerItem     = `{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Record r1 is late.","annotations":[]}]}`
)

// loopReplies are the provider's answers in a discover -> call -> answer
// loop: a discovery call, a call of the discovered records_lookup, the
// final answer.
func loopReplies(native bool) []reply {
	if native {
		return []reply{
			{Body: responseJSON(nativeModel, reasoningItem, searchCallItem)},
			{Body: responseJSON(nativeModel, nsCallItem)},
			{Body: responseJSON(nativeModel, answerItem)},
		}
	}
	return []reply{
		{Body: responseJSON(emulatedModel, emuSearchItem)},
		{Body: responseJSON(emulatedModel, flatCallItem)},
		{Body: responseJSON(emulatedModel, answerItem)},
	}
}
