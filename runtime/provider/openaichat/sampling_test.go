package openaichat

import (
	"errors"
	"testing"

	"github.com/openai/openai-go/v3/shared"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/provider/internal/openaitest"
)

// TestSamplingOnReasoningModels checks that a temperature goes out in the
// SDK's typed field where the model takes one and is refused before
// sending where it does not, with the reasoning effort the client sets.
func TestSamplingOnReasoningModels(t *testing.T) {
	temp := 0.3
	tests := []struct {
		name   string
		model  string
		effort shared.ReasoningEffort
		ok     bool
	}{
		{"non-reasoning model", chatModel, "", true},
		{"gpt-5.4 at effort none", "gpt-5.4", shared.ReasoningEffortNone, true},
		{"gpt-5.4 reasoning", "gpt-5.4", shared.ReasoningEffortMedium, false},
		{"o3 always reasons", "o3", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(WithReasoningEffort(tt.effort))
			req := openaitest.Prepare(t, c, tt.model, openaitest.Start(), openaitest.Catalog(t))
			req.Temperature = &temp
			_, params, err := c.render(req)
			if !tt.ok {
				var ve *model.ValidationError
				if !errors.As(err, &ve) || ve.Rule != RuleSampling {
					t.Fatalf("error %v, want rule %s", err, RuleSampling)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if params.Temperature.Value != temp || params.ReasoningEffort != tt.effort {
				t.Errorf("temperature %v, effort %q", params.Temperature, params.ReasoningEffort)
			}
		})
	}
}
