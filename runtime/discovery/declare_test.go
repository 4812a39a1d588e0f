package discovery

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/google/go-cmp/cmp"
)

// discoveredHistory discovers b and a, then a newer snapshot of b, then c
// and the application's "lookup".
func discoveredHistory() []model.Message {
	bNew := snap("b")
	bNew.Description = "b, version 2"
	return []model.Message{
		model.SystemMessage("sys"),
		model.UserMessage("hi"),
		model.AssistantMessage(discoveryCall("d1", "b", "a")),
		model.DiscoveryMessage(result("d1", snap("b"), snap("a"))),
		model.AssistantMessage(discoveryCall("d2", "b"), discoveryCall("d3", "c")),
		model.DiscoveryMessage(result("d2", bNew), result("d3", snap("c"), snap("lookup"))),
		model.AssistantMessage(model.TextPart("ready")),
	}
}

func TestDeclareOrder(t *testing.T) {
	app := []model.ToolDefinition{appTool("lookup"), appTool("search")}
	d, err := Declare(app, discoveredHistory(), Options{Enabled: true, Description: "app text"})
	if err != nil {
		t.Fatalf("Declare: %v", err)
	}
	if got, want := names(d.Tools), []string{"lookup", "search", ToolName, "b", "a", "c"}; !slices.Equal(got, want) {
		t.Fatalf("declared %v, want %v", got, want)
	}
	if diff := cmp.Diff(Tool("app text"), d.Tools[2]); diff != "" {
		t.Errorf("discovery tool (-want +got):\n%s", diff)
	}
	if d.Tools[3].Description != "b, version 2" {
		t.Errorf("b declared with %q, want the latest snapshot", d.Tools[3].Description)
	}
	for _, def := range d.Tools[3:] {
		if def.Kind != model.ToolDiscovered {
			t.Errorf("%s has kind %q", def.Name, def.Kind)
		}
	}
	if d.Tools[0].Description != "application tool lookup" {
		t.Errorf("the application's lookup lost to a snapshot: %+v", d.Tools[0])
	}
	if !slices.Equal(d.Shadowed, []string{"lookup"}) || d.Withheld != nil || d.NonStrict != nil {
		t.Errorf("report = shadowed %v, withheld %v, non-strict %v", d.Shadowed, d.Withheld, d.NonStrict)
	}
}

func TestDeclareModes(t *testing.T) {
	app := []model.ToolDefinition{appTool("search")}
	cases := []struct {
		name     string
		opts     Options
		want     []string
		withheld []string
	}{
		{"discovery off keeps discovered tools", Options{}, []string{"search", "b", "a", "c", "lookup"}, nil},
		{"discovery on", Options{Enabled: true}, []string{"search", ToolName, "b", "a", "c", "lookup"}, nil},
		{"structured output declares no discovered tools", Options{Enabled: true, StructuredOutput: true}, []string{"search", ToolName}, nil},
		{"structured output without discovery", Options{StructuredOutput: true}, []string{"search"}, nil},
		{"permitted filters", Options{Enabled: true, Permitted: nameSet{"a": true, "lookup": true}}, []string{"search", ToolName, "a", "lookup"}, []string{"b", "c"}},
		{"nothing permitted", Options{Permitted: nameSet{}}, []string{"search"}, []string{"b", "a", "c", "lookup"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Declare(app, discoveredHistory(), tc.opts)
			if err != nil {
				t.Fatalf("Declare: %v", err)
			}
			if got := names(d.Tools); !slices.Equal(got, tc.want) {
				t.Errorf("declared %v, want %v", got, tc.want)
			}
			if !slices.Equal(d.Withheld, tc.withheld) {
				t.Errorf("withheld %v, want %v", d.Withheld, tc.withheld)
			}
		})
	}
}

func TestDeclareEmptyHistory(t *testing.T) {
	d, err := Declare(nil, nil, Options{})
	if err != nil || len(d.Tools) != 0 {
		t.Fatalf("Declare = %+v, %v; want no tools", d, err)
	}
}

func TestDeclareStrictDowngrade(t *testing.T) {
	history := []model.Message{
		model.UserMessage("hi"),
		model.AssistantMessage(discoveryCall("d1", "s1")),
		model.DiscoveryMessage(result("d1", strictSnap("s1"), snap("open"), strictSnap("s2"))),
		model.AssistantMessage(discoveryCall("d2", "s3")),
		model.DiscoveryMessage(result("d2", strictSnap("s3"), strictSnap("s1"))),
	}
	strictApp := appTool("app")
	strictApp.Parameters = json.RawMessage(strictSchema)
	strictApp.Strict = true
	cases := []struct {
		name       string
		app        []model.ToolDefinition
		limits     model.StrictLimits
		strict     []string
		nonStrict  []string
		wantErrFor model.Rule
	}{
		{"no limit", nil, model.StrictLimits{Supported: true}, []string{"s1", "s2", "s3"}, nil, ""},
		{"limit two", nil, model.StrictLimits{Supported: true, MaxTools: 2}, []string{"s1", "s2"}, []string{"s3"}, ""},
		{"application tools count first", []model.ToolDefinition{strictApp}, model.StrictLimits{Supported: true, MaxTools: 2}, []string{"app", "s1"}, []string{"s2", "s3"}, ""},
		{"unsupported", nil, model.StrictLimits{}, nil, []string{"s1", "s2", "s3"}, ""},
		{"strict application tool unsupported", []model.ToolDefinition{strictApp}, model.StrictLimits{}, nil, nil, RuleStrictLimit},
		{"too many strict application tools", []model.ToolDefinition{strictApp, func() model.ToolDefinition { d := strictApp; d.Name = "app2"; return d }()}, model.StrictLimits{Supported: true, MaxTools: 1}, nil, nil, RuleStrictLimit},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Declare(tc.app, history, Options{Strict: tc.limits})
			if tc.wantErrFor != "" {
				wantRule(t, err, tc.wantErrFor, -1, -1)
				return
			}
			if err != nil {
				t.Fatalf("Declare: %v", err)
			}
			var strict []string
			for _, def := range d.Tools {
				if def.Strict {
					strict = append(strict, def.Name)
				}
			}
			if !slices.Equal(strict, tc.strict) || !slices.Equal(d.NonStrict, tc.nonStrict) {
				t.Errorf("strict %v, non-strict %v; want %v, %v", strict, d.NonStrict, tc.strict, tc.nonStrict)
			}
		})
	}
}

func TestDeclareApplicationTools(t *testing.T) {
	withKind := appTool("x")
	withKind.Kind = model.ToolDiscovered
	badParams := appTool("x")
	badParams.Parameters = json.RawMessage(`{"type":"array"}`)
	openStrict := appTool("x")
	openStrict.Strict = true
	cases := []struct {
		name string
		app  []model.ToolDefinition
		rule model.Rule
	}{
		{"valid", []model.ToolDefinition{appTool("a"), appTool("b")}, ""},
		{"wrong kind", []model.ToolDefinition{withKind}, RuleToolKind},
		{"no name", []model.ToolDefinition{appTool("")}, RuleToolName},
		{"duplicate", []model.ToolDefinition{appTool("a"), appTool("a")}, RuleToolName},
		{"reserved", []model.ToolDefinition{appTool(ToolName)}, RuleReservedName},
		{"parameters", []model.ToolDefinition{badParams}, RuleParameters},
		{"strict outside the contract", []model.ToolDefinition{openStrict}, RuleStrictSchema},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Declare(tc.app, nil, Options{Strict: model.StrictLimits{Supported: true}})
			wantRule(t, err, tc.rule, -1, -1)
		})
	}
}

func TestDeclareRejectsInvalidHistory(t *testing.T) {
	history := []model.Message{model.UserMessage("hi"), model.AssistantMessage(discoveryCall("d1", "a"))}
	_, err := Declare(nil, history, Options{Enabled: true})
	wantRule(t, err, RuleUnanswered, 1, 0)
}

func TestDiscovered(t *testing.T) {
	got := Discovered(discoveredHistory())
	want := []string{"b", "a", "c", "lookup"}
	var gotNames []string
	for _, s := range got {
		gotNames = append(gotNames, s.Name)
	}
	if !slices.Equal(gotNames, want) || got[0].Description != "b, version 2" {
		t.Errorf("Discovered = %+v", got)
	}
}
