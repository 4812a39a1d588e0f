//go:build long

package toolsearch

// longTests reports that the tests run with the long build tag: the
// comparisons with the reference ranking on 100,000 tools run too (CI runs
// them as a step of their own; see .ci/run).
const longTests = true
