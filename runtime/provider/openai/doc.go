// Package openai is the model.Client for the OpenAI Responses API, built on
// the official SDK (github.com/openai/openai-go/v3).
//
// Discovery is native from GPT-5.4 on (except gpt-5.4-nano and gpt-5.5-pro):
// the discovery tool becomes a client-executed tool_search tool whose
// parameters are a query only, so the first request names no deferred tool.
// The model's tool_search_call items become discovery calls; the discovery
// results that answer them go back as tool_search_output items whose
// functions sit in one namespace per toolset, and a function_call that
// carries a namespace maps back to the conversation's tool name. Other
// models, unrecognized model IDs (Azure deployment names included) and
// clients built with WithEmulation render discovery as an ordinary function
// whose result is text, the discovered tools being declared as ordinary
// functions (package emulation).
//
// In native mode the assistant's output items (reasoning, tool_search_call,
// function_call with its namespace) are kept verbatim in the message's Meta
// under MetaKey and sent back unchanged, so every earlier message renders to
// the same bytes on every request and the provider's prompt cache stays
// warm. Emulated rendering ignores them, so a history moves freely between
// native and emulated rendering and to other providers.
//
// Native rendering follows the request's declarations (package discovery
// decides them): a tool_search_output loads only the snapshots the request
// declares as discovered tools, so a tool withheld by policy, a superseded
// snapshot or a structured-output request loads nothing more. The deferred
// catalog (model.Discovery.Deferred) is never sent: the tool_search tool
// names no tool up front. A request that turns discovery off keeps the
// earlier tool_search items of its history, so the tools they loaded stay
// callable, but declares no tool_search tool.
//
// Every request must set a positive MaxOutputTokens; the adapter rejects
// one that does not before sending it.
package openai
