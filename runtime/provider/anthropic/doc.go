// Package anthropic is the model.Client for the Anthropic Messages API,
// built on the official Go SDK (github.com/anthropics/anthropic-sdk-go/v2)
// and its beta Messages endpoint, which carries deferred tool loading and
// tool search.
//
// Discovery is rendered natively for Claude Opus 4.5, Sonnet 4.5, Haiku 4.5,
// later models and unrecognized model IDs, and emulated for older models
// (Opus 4.1, Opus 4, Sonnet 4, the Claude 3 family and before):
//
//   - Native, client search (the default): every permitted deferred tool is
//     declared with defer_loading, the discovery tool is an ordinary tool,
//     and its result is sent as tool_reference blocks naming the tools that
//     package discovery found, so the provider loads their definitions.
//   - Native, hosted search (WithHostedSearch): the provider's own
//     tool_search_tool_bm25 or tool_search_tool_regex runs the search; its
//     server_tool_use and tool_search_tool_result blocks become a discovery
//     call in the neutral history (its Query the model's BM25 query or
//     regex pattern, its Names the tools the provider loaded) and are kept
//     verbatim in the part's metadata, to be sent back unchanged on the
//     next request. A block kept verbatim that gives a key twice is
//     refused, and so is a stored record that is not one this package
//     writes.
//   - Emulated: the discovery tool is an ordinary tool, its result is text
//     listing what was found, and discovered tools are declared as ordinary
//     tools from the next request on.
//
// Deferred tools never carry cache_control: the tool cache breakpoint goes
// on the last non-deferred tool, and at least one tool stays non-deferred.
// The request also sets the top-level automatic cache breakpoint, so the
// rendered bytes of earlier messages never change from step to step.
//
// Mid-conversation tool changes keep the prompt cache when the run's
// permitted catalog changes between steps, on the models that accept them
// (Claude Opus 4.8, Opus 5, Fable 5, Mythos 5, later versions of those
// families and unrecognized IDs), with native discovery and client search:
// a discovered tool the run no longer permits stays declared, deferred and
// at its place, and a system-role message after the last user turn
// withdraws it with a tool_removal block; when it is permitted again a
// tool_addition block offers it again. Requests carrying such messages send
// the beta header mid-conversation-tool-changes-2026-07-01 (BetaToolChanges).
// Each change is recorded in the Meta of the answer to its request
// (MetaToolChanges, with the places of discovered tools among the
// declarations), so a stored history renders the same bytes again. The
// protocol adds and removes tools by name only: a history holding two
// definitions of one discovered tool fails before sending with a
// *ToolRedefinedError (start a new conversation, or compact the history to
// one definition). On other models, with hosted search, with emulation and
// with WithoutToolChanges the declarations follow the permitted catalog, as before: the withheld
// tool is no longer declared or referenced, no system message is sent, the
// records are not rendered, and the cached prefix is rewritten from the
// tools on at each change.
//
// The adapter renders what the request declares; it does not decide it.
// Which tools a request declares, and whether the history is valid, is the
// business of package discovery: every request passes discovery.Check
// before it is rendered. Tool names travel as discovery's portable names
// and are mapped back in answers; names that collide are rejected before
// sending. A discovery result never references a tool the request does not
// declare, so a tool withheld by policy stays unseen (with tool changes, a
// withheld tool the model already found stays declared but withdrawn; the
// runtime refuses its calls).
//
// A history started on another adapter, or under another rendering,
// continues here: discovery calls without a native record are rendered
// from their neutral form (with hosted search, as a rebuilt
// server_tool_use and tool_search_tool_result pair), call ids that other
// providers gave are rewritten into the forms the Messages API accepts (the
// same way in a call and in its result, on every request), and an answer
// cut off before any content renders no turn.
//
// Thinking and redacted_thinking blocks become reasoning parts holding the
// block as it came, and go back unmodified on later requests, as the API
// requires; reasoning another provider made is dropped. A hosted search
// the provider answered in the same response is a hosted discovery call,
// which never keeps the turn open; one whose result the provider has yet
// to give goes back as it came. A turn the provider pauses (pause_turn) is
// continued inside Complete and Stream; its usage is summed over the
// responses, reasoning tokens (output_tokens_details.thinking_tokens)
// included. The API version the SDK sends
// (2026-10-21) has no sampling parameters, so a request with a temperature
// is refused before sending (RuleSampling), as are requests beyond the
// documented limits (RuleDeferredLimit, RuleStrict, RuleStrictComplexity).
//
// On Amazon Bedrock and Vertex AI the adapter runs through the SDK's own
// platform options, passed with WithRequestOptions:
// bedrock.WithConfig(cfg) sends Messages requests through InvokeModel
// (/model/{id}/invoke, signed with SigV4; the Converse API has no tool
// search), vertex.WithCredentials(ctx, region, project, creds) through
// rawPredict. Discovery is native there for the same models (platform model
// IDs such as "us.anthropic.claude-sonnet-4-5-20250929-v1:0" and
// "claude-sonnet-4-5@20250929" are recognized).
package anthropic
