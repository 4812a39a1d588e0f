package discovery

import (
	"encoding/json"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestValidateHistory(t *testing.T) {
	user := model.UserMessage("hi")
	badParams := snap("bad")
	badParams.Parameters = json.RawMessage(`{"type":"string"}`)
	openStrict := snap("open")
	openStrict.Strict = new(true)
	notStrict := snap("lenient")
	notStrict.Strict = new(false)
	cases := []struct {
		name      string
		history   []model.Message
		rule      model.Rule
		msg, part int
	}{
		{"empty", nil, "", 0, 0},
		{"discover then call", []model.Message{
			user,
			model.AssistantMessage(model.TextPart("looking"), discoveryCall("d1", "a")),
			model.DiscoveryMessage(result("d1", snap("a"))),
			model.AssistantMessage(toolCall("c1", "a")),
			model.ToolMessage(toolResult("c1", "a")),
			model.AssistantMessage(model.TextPart("done")),
		}, "", 0, 0},
		{"hosted call the provider answered needs no result", []model.Message{
			user,
			model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "h1", Names: []string{"a"}, Hosted: true}), model.TextPart("done")),
			model.UserMessage("thanks"),
		}, "", 0, 0},
		{"hosted call answered", []model.Message{
			user,
			model.AssistantMessage(model.DiscoveryCallPart(model.DiscoveryCall{ID: "h1", Names: []string{"a"}, Hosted: true})),
			model.DiscoveryMessage(result("h1", snap("a"))),
		}, "", 0, 0},
		{"mixed calls answered in two messages", []model.Message{
			user,
			model.AssistantMessage(toolCall("c1", "x"), discoveryCall("d1", "a")),
			model.DiscoveryMessage(result("d1")),
			model.ToolMessage(toolResult("c1", "x")),
			model.SystemMessage("keep going"),
		}, "", 0, 0},
		{"non-strict snapshot may be open", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1", notStrict, strictSnap("s"))),
		}, "", 0, 0},
		{"structure comes first", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a"), discoveryCall("d1", "b")),
		}, model.RuleDuplicateCallID, 1, 1},
		{"note with tools", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")),
			model.DiscoveryMessage(model.DiscoveryResult{CallID: "d1", Tools: []model.ToolSnapshot{snap("a")}, Note: "n"}),
		}, model.RuleNoteWithTools, 2, 0},
		{"name listed twice", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1", snap("a"), snap("a"))),
		}, model.RuleDuplicateSnapshot, 2, 0},
		{"unanswered before user", []model.Message{
			user, model.AssistantMessage(model.TextPart("x"), discoveryCall("d1", "a")), user,
		}, RuleUnanswered, 1, 1},
		{"unanswered before assistant", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a"), discoveryCall("d2", "b")),
			model.DiscoveryMessage(result("d1")), model.AssistantMessage(model.TextPart("x")),
		}, RuleUnanswered, 1, 1},
		{"unanswered at the end", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")),
		}, RuleUnanswered, 1, 0},
		{"unanswered tool call", []model.Message{
			user, model.AssistantMessage(toolCall("c1", "x")), user,
		}, RuleUnanswered, 1, 0},
		{"result without assistant", []model.Message{
			user, model.DiscoveryMessage(result("d1")),
		}, RuleOrphanResult, 1, 0},
		{"result after user", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1")),
			user, model.DiscoveryMessage(result("d1")),
		}, RuleOrphanResult, 4, 0},
		{"result answers no call", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1"), result("d9")),
		}, RuleOrphanResult, 2, 1},
		{"result answers an earlier message", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1")),
			model.AssistantMessage(discoveryCall("d2", "a")), model.DiscoveryMessage(result("d1")),
		}, RuleOrphanResult, 4, 0},
		{"discovery result for a tool call", []model.Message{
			user, model.AssistantMessage(toolCall("c1", "x")), model.DiscoveryMessage(result("c1")),
		}, RuleOrphanResult, 2, 0},
		{"tool result for a discovery call", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "x")), model.ToolMessage(toolResult("d1", "x")),
		}, RuleOrphanResult, 2, 0},
		{"answered twice in one message", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1"), result("d1")),
		}, RuleAnsweredTwice, 2, 1},
		{"answered twice in two messages", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1")), model.DiscoveryMessage(result("d1")),
		}, RuleAnsweredTwice, 3, 0},
		{"reserved snapshot name", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1", snap("a"), snap(ToolName))),
		}, RuleReservedName, 2, 0},
		{"second result answers no call", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1"), result("d2")),
		}, RuleOrphanResult, 2, 1},
		{"snapshot name a provider rejects", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1", snap("github.create_issue"))),
		}, RuleSnapshotName, 2, 0},
		{"parameters not an object schema", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a")), model.DiscoveryMessage(result("d1", badParams)),
		}, RuleParameters, 2, 0},
		{"strict snapshot outside the contract", []model.Message{
			user, model.AssistantMessage(discoveryCall("d1", "a"), discoveryCall("d2", "b")),
			model.DiscoveryMessage(result("d1"), result("d2", openStrict)),
		}, RuleStrictSchema, 2, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantRule(t, ValidateHistory(tc.history), tc.rule, tc.msg, tc.part)
		})
	}
}

func TestCheckSnapshot(t *testing.T) {
	noParams := snap("x")
	noParams.Parameters = nil
	cases := []struct {
		name string
		s    model.ToolSnapshot
		rule model.Rule
	}{
		{"valid", snap("records_lookup"), ""},
		{"strict", strictSnap("s"), ""},
		{"empty name", snap(""), RuleSnapshotName},
		{"reserved", snap("tool_search_tool_bm25"), RuleReservedName},
		{"no parameters", noParams, RuleParameters},
	}
	for _, tc := range cases {
		wantRule(t, CheckSnapshot(tc.s), tc.rule, -1, -1)
	}
}
