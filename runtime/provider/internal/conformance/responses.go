package conformance

import (
	"fmt"
	"reflect"

	"github.com/anthropics/anthropic-sdk-go/v2"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// CheckResponse decodes a response body of provider strictly into the
// SDK's response type and checks that every content block (Anthropic) or
// output item and message content part (Responses) is a type the SDK
// knows, decoding strictly into that type too.
func CheckResponse(provider string, body []byte) error {
	switch provider {
	case Anthropic:
		var msg anthropic.BetaMessage
		if err := StrictResponse(body, &msg); err != nil {
			return err
		}
		for i, b := range msg.Content {
			if err := variant(b.AsAny(), b.RawJSON(), fmt.Sprintf("content block %d of type %q", i, b.Type)); err != nil {
				return err
			}
		}
	case OpenAIResponses:
		var resp responses.Response
		if err := StrictResponse(body, &resp); err != nil {
			return err
		}
		for i, it := range resp.Output {
			what := fmt.Sprintf("output item %d of type %q", i, it.Type)
			if err := variant(it.AsAny(), it.RawJSON(), what); err != nil {
				return err
			}
			if it.Type != "message" {
				continue
			}
			for j, c := range it.AsMessage().Content {
				if err := variant(c.AsAny(), c.RawJSON(), fmt.Sprintf("%s, content %d of type %q", what, j, c.Type)); err != nil {
					return err
				}
			}
		}
	case OpenAIChat:
		var c sdk.ChatCompletion
		if err := StrictResponse(body, &c); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown provider %q", provider)
	}
	return nil
}

// variant checks one union value: the SDK knows its type (AsAny returned
// a variant) and its JSON decodes strictly into that variant.
func variant(v any, raw, what string) error {
	if v == nil || reflect.ValueOf(v).Kind() == reflect.Pointer && reflect.ValueOf(v).IsNil() {
		return fmt.Errorf("%s: a type the SDK does not know", what)
	}
	if err := StrictResponse([]byte(raw), reflect.New(reflect.TypeOf(v)).Interface()); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
