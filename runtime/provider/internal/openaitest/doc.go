// Package openaitest holds the test double of the OpenAI API that the two
// OpenAI adapters' tests share: a loopback httptest server that records
// request bodies and answers with scripted replies, and golden-file
// comparison of request bodies.
package openaitest
