package openai

import (
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3/responses"
)

// FuzzDecodeResponse decodes arbitrary response bodies, native and
// emulated: the decoder returns a valid response or an error, never panics.
func FuzzDecodeResponse(f *testing.F) {
	f.Add([]byte(responseJSON(nativeModel, reasoningItem, searchCallItem)), true)
	f.Add([]byte(responseJSON(nativeModel, nsCallItem, answerItem)), true)
	f.Add([]byte(responseJSON(emulatedModel, emuSearchItem)), false)
	f.Add([]byte(`{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[{"type":"function_call","arguments":"{"}]}`), false)
	f.Fuzz(func(t *testing.T, body []byte, native bool) {
		var resp responses.Response
		if err := json.Unmarshal(body, &resp); err != nil {
			return
		}
		w := newWire(native)
		if _, err := w.flatName("get_time"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := w.load("records", "records_lookup"); err != nil {
			t.Fatal(err)
		}
		out, err := w.decodeResponse(&resp)
		if err != nil {
			return
		}
		if err := out.Validate(); err != nil {
			t.Fatalf("decoded response does not validate: %v\n%s", err, body)
		}
		if native {
			if _, err := decodeItems(out.Message.Meta[MetaKey]); len(resp.Output) > 0 && err != nil {
				t.Fatalf("kept output items do not decode: %v", err)
			}
		}
	})
}

// FuzzReplayMeta replays arbitrary Meta values: an error or input items,
// never a panic.
func FuzzReplayMeta(f *testing.F) {
	f.Add([]byte(`[` + reasoningItem + `,` + searchCallItem + `]`))
	f.Add([]byte(`[{"type":1}]`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		w := newWire(true)
		items, err := w.replay(raw)
		if err != nil {
			return
		}
		if _, err := json.Marshal(items); err != nil {
			t.Fatalf("replayed items do not encode: %v", err)
		}
	})
}
