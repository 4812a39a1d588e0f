package anthropic

import (
	"encoding/json"
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
// is a record with a server_tool_use block, or an error, never a panic.
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
		if err == nil && ok && len(rec.ServerToolUse) == 0 {
			t.Fatalf("record without server_tool_use accepted: %s", meta)
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
