// Package jsonscan is the runtime's one JSON scanner: it reads the tokens
// of a JSON text (white space, strings, numbers and the literals true,
// false and null) as RFC 8259 writes them, and keeps one set of limits for
// every reader built on it:
//
//   - MaxDepth: at most 1,000 arrays and objects open at once;
//   - MaxExponent: a non-zero number's decimal exponent (the n of 0.D ×
//     10^n, D its significant digits) within ±1,000,000,000, and an
//     exponent written with at most 10 digits after its leading zeros.
//
// Its readers build their own structure on the tokens: tools.Canonicalize
// (the canonical form that fingerprints hash), the shape check of a
// discovery catalog's parameters (runtime/discovery, which accepts exactly
// what Canonicalize accepts), and the reader of a parameters schema's
// words for search (runtime/toolsearch). The registry's publish outline
// (runtime/registry, OutlinePublish) reads a publish body's keys and
// toolset name with it and passes over every other value with Skip, which
// checks a value whole in one pass without recursion; the limits bound what
// readers build, so they do not apply to what Skip passes over, however
// deep it nests. Every error wraps ErrInvalid and names the offset where
// reading stopped.
//
// Strings are checked strictly (invalid UTF-8 and unpaired surrogate
// escapes are errors) unless the scanner is lenient, as the search reader's
// is: it reads invalid UTF-8 as it is and an unpaired surrogate escape as
// U+FFFD, as encoding/json decodes them; the publish outline's is lenient
// too, so that it reads every body the registry's strict decoder accepts.
//
// The package is internal to runtime/, where its readers are
// (runtime/tools, runtime/discovery, runtime/toolsearch, runtime/registry):
// the scanner is the readers' shared machinery, not API that applications
// call, so it is kept out of package tools' exported identifiers.
package jsonscan
