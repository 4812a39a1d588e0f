// Package platforms holds, in a module of its own, the test of the
// Anthropic adapter (runtime/provider/anthropic) on Amazon Bedrock and
// Vertex AI through the SDK's bedrock and vertex options: the AWS and
// Google SDKs it needs stay out of the main module's requirements.
package platforms
