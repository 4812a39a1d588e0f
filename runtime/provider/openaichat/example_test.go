package openaichat_test

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/provider/openaichat"
)

// Any OpenAI-compatible endpoint: discovery is emulated, and an endpoint
// without function calling reports that it cannot render discovery.
func ExampleNew() {
	local := openaichat.New(openaichat.WithBaseURL("http://localhost:11434/v1"), openaichat.WithMaxTokens())
	plain := openaichat.New(openaichat.WithBaseURL("http://localhost:8000/v1"), openaichat.WithoutTools())
	fmt.Println(local.Capabilities("llama3.3").Discovery, plain.Capabilities("tiny").Discovery)
	// Output:
	// emulated unsupported
}
