// Command assistant is the quickstart of goa-discovery: it runs the example
// design's analyst agent end to end and prints every step.
//
// It starts a tool registry in-process on 127.0.0.1, publishes the generated
// customers toolset in it from a provider endpoint of its own, serves the
// documentation's MCP server (example/docserver) over streamable HTTP on
// 127.0.0.1 and binds the design's Manual toolset to a session with it
// (docs.Register checks the server's tool list against the design),
// registers the generated tickets executor locally, and asks the agent a
// question that no tool it starts with can answer: the agent has only the
// discovery tool, so it searches, loads the tools it found, calls them
// (through the registry, locally and on the MCP server) and answers.
//
// By default it runs offline (-provider replay): the real provider adapter
// and the provider's official SDK talk to a local HTTP server that replays
// recorded provider responses, written in the provider's wire format under
// recordings/. -replay-provider chooses whose recordings (anthropic, openai
// or openai-chat). With -provider anthropic, openai or openai-chat it asks
// the real provider instead, with the key from ANTHROPIC_API_KEY or
// OPENAI_API_KEY:
//
//	go run ./example/cmd/assistant
//	go run ./example/cmd/assistant -replay-provider openai
//	ANTHROPIC_API_KEY=... go run ./example/cmd/assistant -provider anthropic -model claude-sonnet-4-5
//
// The output lists the searches the model made, what each found, the calls
// and their results, the answer, and the size in bytes of every request body
// the SDK sent.
package main
