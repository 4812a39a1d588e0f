// Package openaiwire holds what the two OpenAI adapters (Responses and Chat
// Completions) share about the OpenAI wire: provider-legal function names
// and their mapping back to the conversation's names, tool parameter schemas
// as the SDK sends them, and the mapping of SDK errors to
// *model.ProviderError.
package openaiwire
