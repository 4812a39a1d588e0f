package openai

import (
	"strconv"
	"strings"
)

// nativeFrom is the first model version with client-executed tool search.
var nativeFrom = version{5, 4}

// nativeExcluded lists the variants of a version that lack tool search.
var nativeExcluded = map[version][]string{
	{5, 4}: {"nano"},
	{5, 5}: {"pro"},
}

// version is a GPT model version: 5.4 is {5, 4}; 6 is {6, 0}.
type version struct{ major, minor int }

func (v version) atLeast(w version) bool {
	return v.major > w.major || v.major == w.major && v.minor >= w.minor
}

// nativeDiscovery reports whether the Responses API offers client-executed
// tool search for the model ID: "gpt-" followed by a version of at least
// 5.4 and optional "-" separated words (a variant such as "mini", "pro" or
// "nano", a snapshot date), except the variants listed in nativeExcluded.
// Anything else, Azure deployment names included, is not recognized.
func nativeDiscovery(model string) bool {
	v, variant, ok := parseModel(model)
	if !ok || !v.atLeast(nativeFrom) {
		return false
	}
	for _, x := range nativeExcluded[v] {
		if variant == x {
			return false
		}
	}
	return true
}

// parseModel splits "gpt-5.4-nano-2026-03-05" into {5, 4} and "nano" (the
// first word after the version unless it is a number).
func parseModel(model string) (version, string, bool) {
	rest, ok := strings.CutPrefix(model, "gpt-")
	if !ok {
		return version{}, "", false
	}
	ver, words, hasWords := strings.Cut(rest, "-")
	majorText, minorText, hasMinor := strings.Cut(ver, ".")
	var v version
	var err error
	if v.major, err = number(majorText); err != nil {
		return version{}, "", false
	}
	if hasMinor {
		if v.minor, err = number(minorText); err != nil {
			return version{}, "", false
		}
	}
	if !hasWords {
		return v, "", true
	}
	variant, _, _ := strings.Cut(words, "-")
	if variant == "" {
		return version{}, "", false
	}
	if _, err := number(variant); err == nil {
		variant = ""
	}
	return v, variant, true
}

// number parses a non-empty run of ASCII digits.
func number(s string) (int, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}
