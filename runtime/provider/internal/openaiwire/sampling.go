package openaiwire

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// RuleSampling: a reasoning model takes a temperature only when it does not
// reason (reasoning effort "none"): GPT-5.1 and later accept temperature,
// top_p and logprobs with effort "none", their default, and reject them at
// any other effort; GPT-5, the o-series and every -pro variant always
// reason and reject them
// (https://developers.openai.com/api/docs/guides/latest-model, "parameter
// compatibility"; https://developers.openai.com/api/docs/guides/reasoning).
const RuleSampling model.Rule = "openai_sampling"

// Reasoning describes what a model ID says about reasoning.
type Reasoning struct {
	// Reasons is true for reasoning models.
	Reasons bool
	// CanRest is true when the model accepts effort "none".
	CanRest bool
	// DefaultNone is true when "none" is the model's default effort.
	DefaultNone bool
}

// ReasoningOf reads a model ID: "o1", "o3-mini", "o4-mini" and "gpt-5..."
// (but "gpt-5-chat...") are reasoning models; from GPT-5.1 on, except -pro
// variants, effort "none" is accepted and the default. Other IDs (GPT-4.1,
// GPT-4o, deployment names) are taken as models that do not reason.
func ReasoningOf(id string) Reasoning {
	id = strings.ToLower(id)
	if len(id) >= 2 && id[0] == 'o' && id[1] >= '1' && id[1] <= '9' {
		return Reasoning{Reasons: true}
	}
	rest, ok := strings.CutPrefix(id, "gpt-")
	if !ok {
		return Reasoning{}
	}
	ver, words, _ := strings.Cut(rest, "-")
	majorText, minorText, _ := strings.Cut(ver, ".")
	major, err := strconv.Atoi(majorText)
	if err != nil || major < 5 {
		return Reasoning{}
	}
	minor, _ := strconv.Atoi(minorText)
	variant, _, _ := strings.Cut(words, "-")
	switch {
	case variant == "chat":
		return Reasoning{}
	case variant == "pro" || (major == 5 && minor == 0):
		return Reasoning{Reasons: true}
	}
	return Reasoning{Reasons: true, CanRest: true, DefaultNone: true}
}

// CheckSampling reports a temperature the model would reject with the
// reasoning effort effort ("" for the model's default).
func CheckSampling(modelID, effort string, temperature *float64) error {
	if temperature == nil {
		return nil
	}
	r := ReasoningOf(modelID)
	if !r.Reasons {
		return nil
	}
	rests := effort == "none" || (effort == "" && r.DefaultNone)
	if rests && r.CanRest {
		return nil
	}
	if effort == "" {
		effort = "its default"
	}
	return &model.ValidationError{Message: -1, Part: -1, Rule: RuleSampling,
		Detail: fmt.Sprintf("model %q reasons at effort %s and takes no temperature; set reasoning effort \"none\" on a model that accepts it, or leave temperature unset", modelID, effort)}
}
