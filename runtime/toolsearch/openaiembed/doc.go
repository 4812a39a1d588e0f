// Package openaiembed is a [toolsearch.Embedder] on the OpenAI embeddings
// API, through the official openai-go SDK: plug it into a
// [toolsearch.HybridIndex] to fuse embedding similarity with the lexical
// ranking. Any endpoint that serves the same API (Azure OpenAI, a gateway, a
// local server) works through [WithBaseURL].
package openaiembed
