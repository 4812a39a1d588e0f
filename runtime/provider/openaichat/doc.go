// Package openaichat is the model.Client for the OpenAI Chat Completions API
// and any OpenAI-compatible endpoint (a base URL option), built on the
// official SDK (github.com/openai/openai-go/v3).
//
// Discovery is always emulated (package emulation): the discovery tool is an
// ordinary function, a discovery call is a call of it, its result is a tool
// message whose text lists what was found, and the discovered tools are
// declared as ordinary functions from the next request on (package
// discovery decides which). The history stays provider-neutral: nothing is
// kept in Meta, and records other adapters keep there are ignored, so a
// conversation moves freely between this adapter and the others.
//
// For endpoints without function calling, WithoutTools makes the client
// report that it cannot render discovery; a request that turns discovery
// on then fails with model.ErrToolSearchUnsupported, and one that declares
// tools with a validation error, before anything is sent.
package openaichat
