package openaiwire

import (
	"errors"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestCheckSampling(t *testing.T) {
	temp := 0.2
	tests := []struct {
		model, effort string
		temp          *float64
		ok            bool
	}{
		{"gpt-4.1", "", &temp, true},
		{"gpt-4o-mini", "", &temp, true},
		{"my-azure-deployment", "", &temp, true},
		{"gpt-5-chat-latest", "", &temp, true},
		{"gpt-5.4", "", &temp, true},
		{"gpt-5.4", "none", &temp, true},
		{"gpt-5.4", "low", &temp, false},
		{"gpt-5.1-mini", "medium", &temp, false},
		{"gpt-5", "", &temp, false},
		{"gpt-5-mini", "none", &temp, false},
		{"gpt-5.5-pro", "", &temp, false},
		{"o3-mini", "", &temp, false},
		{"o4-mini", "high", nil, true},
		{"gpt-5", "high", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.model+"/"+tt.effort, func(t *testing.T) {
			err := CheckSampling(tt.model, tt.effort, tt.temp)
			var ve *model.ValidationError
			switch {
			case tt.ok && err != nil:
				t.Fatalf("error %v, want none", err)
			case !tt.ok && (!errors.As(err, &ve) || ve.Rule != RuleSampling):
				t.Fatalf("error %v, want rule %s", err, RuleSampling)
			}
		})
	}
}
