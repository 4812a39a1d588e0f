// Package promptcache measures how much of each request a provider's prompt
// cache can keep, per adapter and rendering, over a scripted conversation:
// its test sends the conversation through every adapter to a loopback test
// double and reports, for each request, the share of its prompt bytes (in
// the order the provider caches them: tools, system, then the turns) that
// is a byte-identical prefix of the previous request. The package has no
// code of its own; the figures are in testdata/figures.md and the README.
package promptcache
