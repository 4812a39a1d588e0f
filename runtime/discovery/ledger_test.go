package discovery

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/google/go-cmp/cmp"
)

// TestPropertyLedgerDeclaresAsDeclare checks, over random histories
// appended in random chunks and random options (strict limits, permitted
// sets, discovery on or off, structured output, a strict application
// tool), that a ledger decides exactly what Declare decides for the whole
// history, and refuses the snapshots ValidateHistory refuses, at the same
// place.
func TestPropertyLedgerDeclaresAsDeclare(t *testing.T) {
	const runs = 300
	// The rules of ValidateHistory that Ledger.Append checks.
	snapshotRules := []model.Rule{RuleSnapshotName, RuleReservedName, RuleParameters, RuleStrictSchema}
	g := newHistoryGen(t, 7)
	var d Declarer
	var compared, refused, downgraded, failed int
	for run := range runs {
		history := g.history(t)
		herr := ValidateHistory(history)
		var verr *model.ValidationError
		if herr != nil && (!errors.As(herr, &verr) || !slices.Contains(snapshotRules, verr.Rule)) {
			continue // a structural failure, which the history's owner checks
		}
		l := d.NewLedger()
		var aerr error
		for rest := history; len(rest) > 0 && aerr == nil; {
			n := 1 + g.rng.IntN(len(rest))
			aerr = l.Append(rest[:n]...)
			rest = rest[n:]
		}
		if herr != nil {
			if aerr == nil || aerr.Error() != herr.Error() {
				t.Fatalf("run %d: Append = %v, want %v", run, aerr, herr)
			}
			refused++
			continue
		}
		if aerr != nil {
			t.Fatalf("run %d: Append of a valid history: %v", run, aerr)
		}
		if diff := cmp.Diff(Discovered(history), l.Discovered()); diff != "" {
			t.Fatalf("run %d: discovered (-Discovered +ledger):\n%s", run, diff)
		}
		for range 4 {
			app := []model.ToolDefinition{appTool("search"), appTool("lookup")}
			if g.rng.IntN(4) == 0 {
				app[1] = strictApp("lookup")
			}
			opts := Options{
				Enabled:          g.rng.IntN(3) > 0,
				Description:      "text",
				StructuredOutput: g.rng.IntN(8) == 0,
				Strict:           model.StrictLimits{Supported: g.rng.IntN(4) > 0, MaxTools: g.rng.IntN(3)},
			}
			switch g.rng.IntN(3) {
			case 1:
				opts.Permitted = g.catalog
			case 2:
				opts.Permitted = nameSet{"mail_send": true, "strict_tool": true, "records_lookup": true}
			}
			want, werr := Declare(app, history, opts)
			got, gerr := l.Declare(app, opts)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Fatalf("run %d: Ledger.Declare error = %v, Declare error = %v", run, gerr, werr)
			}
			if werr != nil {
				failed++
				continue
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("run %d, options %+v: declarations (-Declare +ledger):\n%s", run, opts, diff)
			}
			compared++
			if len(want.NonStrict) > 0 {
				downgraded++
			}
		}
	}
	// The generator must exercise every outcome to prove anything.
	if compared < runs || refused == 0 || downgraded == 0 || failed == 0 {
		t.Fatalf("generator is lopsided: %d compared (%d with strict downgrades), %d refused, %d failing", compared, downgraded, refused, failed)
	}
	t.Logf("%d declarations compared (%d with strict downgrades, %d failing alike), %d histories refused alike", compared, downgraded, failed, refused)
}

func strictApp(name string) model.ToolDefinition {
	d := appTool(name)
	d.Parameters = json.RawMessage(strictSchema)
	d.Strict = true
	return d
}

func TestLedgerStrictLimits(t *testing.T) {
	var l Ledger
	history := []model.Message{
		model.UserMessage("go"),
		model.AssistantMessage(discoveryCall("d1", "a", "b", "c")),
		model.DiscoveryMessage(result("d1", strictSnap("a"), snap("b"), strictSnap("c"))),
	}
	if err := l.Append(history...); err != nil {
		t.Fatalf("Append: %v", err)
	}
	cases := []struct {
		name      string
		strict    model.StrictLimits
		app       []model.ToolDefinition
		wantRule  model.Rule
		strictOut []string
		nonStrict []string
	}{
		{"no limit", model.StrictLimits{Supported: true}, nil, "", []string{"a", "c"}, nil},
		{"limit counts discovered tools in order", model.StrictLimits{Supported: true, MaxTools: 1}, nil, "", []string{"a"}, []string{"c"}},
		{"application tools count first", model.StrictLimits{Supported: true, MaxTools: 1}, []model.ToolDefinition{strictApp("app")}, "", []string{"app"}, []string{"a", "c"}},
		{"unsupported", model.StrictLimits{}, nil, "", nil, []string{"a", "c"}},
		{"strict application tool unsupported", model.StrictLimits{}, []model.ToolDefinition{strictApp("app")}, RuleStrictLimit, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := l.Declare(tc.app, Options{Enabled: true, Strict: tc.strict})
			want, werr := Declare(tc.app, history, Options{Enabled: true, Strict: tc.strict})
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Fatalf("Ledger.Declare error = %v, Declare error = %v", err, werr)
			}
			wantRule(t, err, tc.wantRule, -1, -1)
			if err != nil {
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("declarations (-Declare +ledger):\n%s", diff)
			}
			var strict []string
			for _, d := range got.Tools {
				if d.Strict {
					strict = append(strict, d.Name)
				}
			}
			if !slices.Equal(strict, tc.strictOut) || !slices.Equal(got.NonStrict, tc.nonStrict) {
				t.Errorf("strict %v, non-strict %v; want %v and %v", strict, got.NonStrict, tc.strictOut, tc.nonStrict)
			}
		})
	}
}

func TestLedgerAppend(t *testing.T) {
	bNew := snap("b")
	bNew.Description = "b, version 2"
	bad := snap("x")
	bad.Parameters = json.RawMessage(`{"type":"string"}`)
	cases := []struct {
		name    string
		chunks  [][]model.Message
		want    []string // names in order of first discovery
		latestB string
		rule    model.Rule
		msg     int
		part    int
	}{
		{
			name: "latest snapshot in order of first discovery",
			chunks: [][]model.Message{
				{model.UserMessage("go"), model.AssistantMessage(discoveryCall("d1", "b", "a"))},
				{model.DiscoveryMessage(result("d1", snap("b"), snap("a")))},
				{model.AssistantMessage(discoveryCall("d2", "c"), discoveryCall("d3", "b")), model.DiscoveryMessage(result("d2", snap("c")), result("d3", bNew))},
			},
			want:    []string{"b", "a", "c"},
			latestB: "b, version 2",
		},
		{
			name: "a bad snapshot is located in the whole history and changes nothing",
			chunks: [][]model.Message{
				{model.UserMessage("go"), model.AssistantMessage(discoveryCall("d1", "b")), model.DiscoveryMessage(result("d1", snap("b")))},
				{model.AssistantMessage(discoveryCall("d2", "a"), discoveryCall("d3", "x")), model.DiscoveryMessage(result("d2", snap("a")), result("d3", bad))},
			},
			want:    []string{"b"},
			latestB: "the b tool",
			rule:    RuleParameters, msg: 4, part: 1,
		},
		{
			name: "a reserved name",
			chunks: [][]model.Message{
				{model.AssistantMessage(discoveryCall("d1", ToolName)), model.DiscoveryMessage(result("d1", snap(ToolName)))},
			},
			rule: RuleReservedName, msg: 1, part: 0,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var l Ledger
			var err error
			for _, c := range tc.chunks {
				if err = l.Append(c...); err != nil {
					break
				}
			}
			wantRule(t, err, tc.rule, tc.msg, tc.part)
			var got []string
			for _, s := range l.Discovered() {
				got = append(got, s.Name)
			}
			if !slices.Equal(got, tc.want) || l.Len() != len(tc.want) {
				t.Errorf("discovered %v (Len %d), want %v", got, l.Len(), tc.want)
			}
			if s, ok := l.Snapshot("b"); ok != (tc.latestB != "") || s.Description != tc.latestB {
				t.Errorf("Snapshot(b) = %q, %v; want %q", s.Description, ok, tc.latestB)
			}
		})
	}
}

func TestLedgerRevision(t *testing.T) {
	bNew := snap("b")
	bNew.Description = "b, version 2"
	steps := []struct {
		name    string
		result  model.DiscoveryResult
		changed bool
	}{
		{"first discovery", result("d1", snap("a"), snap("b")), true},
		{"the same snapshots again", result("d2", snap("b"), snap("a")), false},
		{"a changed snapshot", result("d3", bNew), true},
		{"a new tool", result("d4", snap("c"), bNew), true},
		{"nothing new", result("d5", snap("c")), false},
	}
	var l Ledger
	for _, st := range steps {
		before := l.Revision()
		msgs := []model.Message{model.AssistantMessage(discoveryCall(st.result.CallID, "x")), model.DiscoveryMessage(st.result)}
		if err := l.Append(msgs...); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if changed := l.Revision() != before; changed != st.changed {
			t.Errorf("%s: revision changed %v, want %v", st.name, changed, st.changed)
		}
	}
}

func TestSameSnapshot(t *testing.T) {
	base := strictSnap("a")
	cases := []struct {
		name   string
		change func(*model.ToolSnapshot)
		same   bool
	}{
		{"identical", func(*model.ToolSnapshot) {}, true},
		{"equal bytes in another slice", func(s *model.ToolSnapshot) { s.Parameters = json.RawMessage(strictSchema) }, true},
		{"name", func(s *model.ToolSnapshot) { s.Name = "b" }, false},
		{"description", func(s *model.ToolSnapshot) { s.Description = "other" }, false},
		{"namespace", func(s *model.ToolSnapshot) { s.Namespace = "ns" }, false},
		{"strict unset", func(s *model.ToolSnapshot) { s.Strict = nil }, false},
		{"strict false", func(s *model.ToolSnapshot) { s.Strict = new(false) }, false},
		{"parameters", func(s *model.ToolSnapshot) { s.Parameters = json.RawMessage(objectSchema) }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			other := strictSnap("a")
			tc.change(&other)
			if got := SameSnapshot(base, other); got != tc.same {
				t.Errorf("SameSnapshot = %v, want %v", got, tc.same)
			}
		})
	}
}

// BenchmarkLedgerDeclare compares deciding a step's declarations from a
// ledger with Declare over the whole history, as a run's history grows:
// 10 application tools, 20 discovered tools, steps of a tool call and a
// discovery call.
func BenchmarkLedgerDeclare(b *testing.B) {
	c := benchCatalog(b, 1000)
	app := benchRequest(c).Tools
	for _, steps := range []int{10, 100} {
		history := []model.Message{model.UserMessage("go")}
		for i := range steps {
			call := model.DiscoveryCall{ID: fmt.Sprintf("d%d", i), Names: []string{c.entries[i%20].Snapshot.Name}}
			res, err := c.Answer(call, 1)
			if err != nil {
				b.Fatal(err)
			}
			tc := model.ToolCall{ID: fmt.Sprintf("c%d", i), Name: "app_1", Arguments: json.RawMessage(`{"id":"x"}`)}
			history = append(history,
				model.AssistantMessage(model.ToolCallPart(tc), model.DiscoveryCallPart(call)),
				model.ToolMessage(model.ToolResult{CallID: tc.ID, Name: tc.Name, Content: "ok"}),
				model.DiscoveryMessage(res))
		}
		opts := Options{Enabled: true, Permitted: c, Strict: model.StrictLimits{Supported: true}}
		b.Run(fmt.Sprintf("Declare/steps=%d", steps), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Declare(app, history, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("Ledger/steps=%d", steps), func(b *testing.B) {
			var d Declarer
			l := d.NewLedger()
			if err := l.Append(history...); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Declare(app, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzLedger feeds stored histories, as JSON, to a ledger: whatever
// ValidateHistory accepts, the ledger records and declares exactly as
// Declare does; a history whose snapshots it refuses, the ledger refuses.
func FuzzLedger(f *testing.F) {
	for _, h := range [][]model.Message{discoveredHistory(), nil} {
		data, err := json.Marshal(h)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0))
		f.Add(data, uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, limits uint8) {
		var history []model.Message
		if err := json.Unmarshal(data, &history); err != nil {
			return
		}
		var l Ledger
		aerr := l.Append(history...)
		if err := ValidateHistory(history); err != nil {
			return
		}
		if aerr != nil {
			t.Fatalf("Append refused a valid history: %v", aerr)
		}
		app := []model.ToolDefinition{appTool("search"), strictApp("lookup")}
		opts := Options{Enabled: limits&1 != 0, Strict: model.StrictLimits{Supported: limits&2 != 0, MaxTools: int(limits >> 2 % 4)}}
		want, werr := Declare(app, history, opts)
		got, gerr := l.Declare(app, opts)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("Ledger.Declare error = %v, Declare error = %v", gerr, werr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("declarations (-Declare +ledger):\n%s", diff)
		}
	})
}
