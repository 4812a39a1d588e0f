package openai

import (
	"path/filepath"
	"testing"

	"github.com/openai/openai-go/v3/option"

	"github.com/goa-discovery/goa-discovery/internal/golden"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// reply is one scripted answer of the fake API.
type reply = openaitest.Reply

// fakeAPI is the Responses API test double.
type fakeAPI struct{ *openaitest.Server }

func newFakeAPI(t *testing.T, replies ...reply) fakeAPI {
	t.Helper()
	return fakeAPI{openaitest.New(t, "/responses", replies...)}
}

// client returns a Client talking to the fake, without retries.
func (f fakeAPI) client(opts ...Option) *Client {
	base := []Option{WithBaseURL(f.URL()), WithAPIKey("test-key"), WithRequestOptions(option.WithMaxRetries(0))}
	return New(append(base, opts...)...)
}

func (f fakeAPI) body(i int) []byte { return f.Body(i) }
func (f fakeAPI) requests() int     { return f.Requests() }

// checkGolden compares a request body with testdata/<name>.json, which holds
// it indented: keys, order and values are the bytes the SDK sent.
func checkGolden(t *testing.T, name string, body []byte) {
	t.Helper()
	golden.JSON(t, filepath.Join("testdata", name+".json"), body)
}

func sse(events ...string) string { return openaitest.SSE(false, events...) }
