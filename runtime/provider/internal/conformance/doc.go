// Package conformance holds the adapters' requests and responses against
// the providers' own definitions instead of the adapters' own reading.
//
// Two independent checks run over every request body the adapters keep
// under testdata, over requests sent through each adapter to a loopback
// server (for the headers), and over every recorded response:
//
//   - Strict decoding into the pinned SDKs' types (anthropic-sdk-go/v2,
//     openai-go/v3): Strict walks an SDK type by its json tags and fails on
//     a key the type does not have, a value of the wrong JSON type, a
//     constant with another value, a missing required field, and a union
//     value that fits none of the union's variants. The SDKs' own
//     unmarshalling is lenient (unknown keys land in extra fields), so it
//     cannot serve as the check.
//   - Documented rules (Rules): one rule per constraint a provider
//     documents, each naming the documentation page and section it comes
//     from, applied to the decoded JSON of a request and its headers.
//
// Recorded responses decode strictly into the SDKs' response types, and
// every content block or output item must be a type the SDK knows.
package conformance
