package conformance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// newParams returns a new request param value of provider's SDK.
func newParams(provider string) any {
	switch provider {
	case Anthropic:
		return new(anthropic.BetaMessageNewParams)
	case OpenAIResponses:
		return new(responses.ResponseNewParams)
	}
	return new(sdk.ChatCompletionNewParams)
}

// requestFiles lists the request bodies each adapter keeps under testdata,
// and those the quickstart's conversation sends (kept by its
// TestRequestBodies).
var requestFiles = []struct {
	provider string
	glob     string
}{
	{Anthropic, "../../anthropic/testdata/*.json"},
	{OpenAIResponses, "../../openai/testdata/*.json"},
	{OpenAIChat, "../../openaichat/testdata/*.json"},
	{Anthropic, "../../../../example/cmd/assistant/testdata/requests/anthropic/*.json"},
	{OpenAIResponses, "../../../../example/cmd/assistant/testdata/requests/openai/*.json"},
	{OpenAIChat, "../../../../example/cmd/assistant/testdata/requests/openai-chat/*.json"},
}

// TestRequestBodiesDecodeStrictly decodes every request body of the
// adapters' testdata strictly into the SDK's request type and checks it
// against the documented rules.
func TestRequestBodiesDecodeStrictly(t *testing.T) {
	for _, rf := range requestFiles {
		files, err := filepath.Glob(rf.glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no request bodies (%v)", rf.glob, err)
		}
		for _, f := range files {
			t.Run(rf.provider+"/"+filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
				body, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := Strict(body, newParams(rf.provider)); err != nil {
					t.Fatalf("strict decode: %v", err)
				}
				req, err := NewRequest(body, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range Violations(rf.provider, req) {
					t.Error(v)
				}
			})
		}
	}
}

// responseFiles lists recorded and constructed responses.
var responseFiles = []struct {
	provider string
	glob     string
}{
	{Anthropic, "../../../../example/cmd/assistant/recordings/anthropic/*.json"},
	{OpenAIResponses, "../../../../example/cmd/assistant/recordings/openai/*.json"},
	{OpenAIChat, "../../../../example/cmd/assistant/recordings/openai-chat/*.json"},
	{Anthropic, "../../anthropic/testdata/responses/*.json"},
	{OpenAIResponses, "../../openai/testdata/responses/*.json"},
	{OpenAIChat, "../../openaichat/testdata/responses/*.json"},
}

// TestResponsesDecodeStrictly decodes every response the quickstart
// replays and every response the adapters keep strictly into the SDK's
// types, with no block or item of a type the SDK does not know.
func TestResponsesDecodeStrictly(t *testing.T) {
	for _, rf := range responseFiles {
		files, err := filepath.Glob(rf.glob)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no responses (%v)", rf.glob, err)
		}
		for _, f := range files {
			t.Run(rf.provider+"/"+filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
				body, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if err := CheckResponse(rf.provider, body); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
