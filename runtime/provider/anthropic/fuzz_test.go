package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// FuzzParseModelID checks that any model ID parses without panicking and
// that its version never reads a date as a version.
func FuzzParseModelID(f *testing.F) {
	for _, id := range []string{"claude-sonnet-4-5-20250929", "claude-3-5-haiku-latest", "us.anthropic.claude-opus-4-1-20250805-v1:0", "claude-", "claude-instant-1.2", "claude-4-opus", "x"} {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		v := parseModelID(id)
		if v.major > 99 || v.minor > 99 || v.major < 0 || v.minor < 0 {
			t.Fatalf("parseModelID(%q) = %+v", id, v)
		}
		if !v.known && (v.major != 0 || v.minor != 0) {
			t.Fatalf("unknown ID %q has a version %+v", id, v)
		}
	})
}

// FuzzDecodeAnswer decodes arbitrary answers of the provider: each either
// fails with an error or yields a response that passes model validation
// and survives a JSON round trip.
func FuzzDecodeAnswer(f *testing.F) {
	for _, content := range []string{clientSearchBlocks, callBlocks, answerBlocks, hostedBlocks, `[` + toolSearchResult + `]`, `[{"type":"tool_use","id":"","name":"","input":"x"}]`,
		`[` + thinkingBlock + `,` + redactedThinkingBlock + `,` + serverToolUse + `]`} {
		f.Add(messageReply("tool_use", content).body)
	}
	f.Add(messageReply("end_turn", `[`+serverToolUse+`,`+toolSearchResult+`,{"type":"text","text":"done"}]`).body)
	names, err := newNames([]string{"records.lookup", "tool_search", "billing_refund"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var msg anthropic.BetaMessage
		if err := json.Unmarshal([]byte(body), &msg); err != nil {
			return
		}
		resp, err := newBlockDecoder(names, "tool_search").response(&msg)
		if err != nil {
			return
		}
		if err := resp.Validate(); err != nil {
			t.Fatalf("decoded response is invalid: %v", err)
		}
		raw, err := json.Marshal(resp)
		if err != nil {
			t.Fatalf("encode decoded response: %v", err)
		}
		var back model.Response
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatalf("decoded response does not round trip: %v\n%s", err, raw)
		}
	})
}

// FuzzNativeRecord reads arbitrary part metadata as a native record: it
// is a record decode writes (a server_tool_use block with an id, or the
// tool_search_tool_result of an earlier call with its tool_use_id), or an
// error, never a panic.
func FuzzNativeRecord(f *testing.F) {
	f.Add(`{"server_tool_use":` + serverToolUse + `,"tool_search_tool_result":` + toolSearchResult + `}`)
	f.Add(`{"server_tool_use":null}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, meta string) {
		if !json.Valid([]byte(meta)) {
			return
		}
		p := model.Part{Meta: map[string]json.RawMessage{Provider: json.RawMessage(meta)}}
		rec, ok, err := recordOf(&p)
		if err != nil || !ok {
			return
		}
		var use, result struct {
			Type      string `json:"type"`
			ID        string `json:"id"`
			ToolUseID string `json:"tool_use_id"`
		}
		_ = json.Unmarshal(rec.ServerToolUse, &use)
		_ = json.Unmarshal(rec.ToolSearchResult, &result)
		if !(use.Type == "server_tool_use" && use.ID != "") && !(len(rec.ServerToolUse) == 0 && result.Type == "tool_search_tool_result" && result.ToolUseID != "") {
			t.Fatalf("record without server_tool_use or the result of an earlier call accepted: %s", meta)
		}
	})
}

// TestNativeRecordStrict: a stored record whose keys differ from the
// record's field names only in case, or repeat, is refused, not read as
// another block.
func TestNativeRecordStrict(t *testing.T) {
	for _, meta := range []string{
		`{"server_tool_use":` + serverToolUse + `,"Server_Tool_Use":{}}`,
		`{"SERVER_TOOL_USE":` + serverToolUse + `}`,
		`{"server_tool_use":` + serverToolUse + `,"server_tool_use":{}}`,
	} {
		p := model.Part{Meta: map[string]json.RawMessage{Provider: json.RawMessage(meta)}}
		if _, _, err := recordOf(&p); err == nil {
			t.Errorf("recordOf accepted %s", meta)
		}
	}
}

// TestNativeRecordShapes: a record is accepted only as decode writes it,
// with its blocks' types and ids, and with the id of the call that holds
// it; anything else is refused with what is wrong.
func TestNativeRecordShapes(t *testing.T) {
	later := `{"type":"tool_search_tool_result","tool_use_id":"srvtoolu_0","content":{"type":"tool_search_tool_search_result","tool_references":[]}}`
	cases := []struct {
		name, meta string
		callID     string // "" for a part without a discovery call
		want       string // "" when the record is accepted
	}{
		{"call and result", `{"server_tool_use":` + serverToolUse + `,"tool_search_tool_result":` + toolSearchResult + `}`, "srvtoolu_1", ""},
		{"call alone", `{"server_tool_use":` + serverToolUse + `}`, "srvtoolu_1", ""},
		{"result of an earlier call", `{"tool_search_tool_result":` + later + `}`, "srvtoolu_0_result", ""},
		{"without its part", `{"server_tool_use":` + serverToolUse + `}`, "", ""},
		{"empty result alone", `{"tool_search_tool_result":{}}`, "", `tool_search_tool_result block has type ""`},
		{"empty", `{}`, "", "no server_tool_use and no tool_search_tool_result"},
		{"null call", `{"server_tool_use":null}`, "", `server_tool_use block has type ""`},
		{"call of another type", `{"server_tool_use":{"type":"tool_use","id":"srvtoolu_1","name":"tool_search_tool_bm25"}}`, "", `server_tool_use block has type "tool_use"`},
		{"call without id", `{"server_tool_use":{"type":"server_tool_use","name":"tool_search_tool_bm25"}}`, "", "server_tool_use block has no id"},
		{"call of another server tool", `{"server_tool_use":{"type":"server_tool_use","id":"s","name":"web_search"}}`, "", `server tool "web_search" is not a hosted search tool`},
		{"call not an object", `{"server_tool_use":[1]}`, "", "server_tool_use: json: cannot unmarshal array"},
		{"result without tool_use_id", `{"tool_search_tool_result":{"type":"tool_search_tool_result"}}`, "", "tool_search_tool_result block has no tool_use_id"},
		{"result of another call", `{"server_tool_use":` + serverToolUse + `,"tool_search_tool_result":` + later + `}`, "", `tool_search_tool_result answers "srvtoolu_0", not its server_tool_use "srvtoolu_1"`},
		{"record of another call", `{"server_tool_use":` + serverToolUse + `}`, "srvtoolu_2", `the record is of call "srvtoolu_1", held by call "srvtoolu_2"`},
		{"later result held under the call's own id", `{"tool_search_tool_result":` + later + `}`, "srvtoolu_0", `the record is of call "srvtoolu_0_result", held by call "srvtoolu_0"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := model.Part{Meta: map[string]json.RawMessage{Provider: json.RawMessage(tc.meta)}}
			if tc.callID != "" {
				p.Kind, p.DiscoveryCall = model.PartDiscoveryCall, &model.DiscoveryCall{ID: tc.callID, Hosted: true}
			}
			_, ok, err := recordOf(&p)
			if tc.want == "" {
				if err != nil || !ok {
					t.Fatalf("recordOf = %v, %v; want the record", ok, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("recordOf error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
