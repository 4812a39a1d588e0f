package discovery

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

func TestCatalogCompilesEntriesWhenAnswered(t *testing.T) {
	broken := snap("broken")
	broken.Parameters = json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}`)
	c, err := NewCatalog([]Entry{{Snapshot: snap("fine")}, {Snapshot: broken}}, nil)
	if err != nil {
		t.Fatalf("NewCatalog: %v", err)
	}
	if len(c.memo.results) != 0 {
		t.Errorf("NewCatalog compiled %d schemas, want none", len(c.memo.results))
	}
	if _, err := c.Answer(model.DiscoveryCall{ID: "d", Names: []string{"fine"}}, 0); err != nil {
		t.Errorf("Answer(fine): %v", err)
	}
	_, err = c.Answer(model.DiscoveryCall{ID: "d", Names: []string{"fine", "broken"}}, 0)
	var verr *model.ValidationError
	if !errors.As(err, &verr) || verr.Rule != RuleParameters {
		t.Errorf("Answer(broken) = %v, want a parameters error", err)
	}

	open := snap("open")
	open.Strict = new(true)
	if _, err := NewCatalog([]Entry{{Snapshot: open}}, nil); !errors.As(err, &verr) || verr.Rule != RuleStrictSchema {
		t.Errorf("NewCatalog(strict open schema) = %v, want a strict schema error up front", err)
	}
}

func TestDeclareRemembersSchemasWithACatalog(t *testing.T) {
	c := testCatalog(t, "a", "b")
	history := discoveredHistory()
	app := []model.ToolDefinition{appTool("search")}
	for range 3 {
		if _, err := Declare(app, history, Options{Permitted: c}); err != nil {
			t.Fatalf("Declare: %v", err)
		}
	}
	// Every snapshot and the application tool share one schema.
	if len(c.memo.results) != 1 {
		t.Errorf("memo holds %d schemas, want 1", len(c.memo.results))
	}
	bad := appTool("bad")
	bad.Parameters = json.RawMessage(`{"type":"object","properties":3}`)
	for range 2 {
		_, err := Declare([]model.ToolDefinition{bad}, nil, Options{Permitted: c})
		wantRule(t, err, RuleParameters, -1, -1)
	}
}

func TestRequestChecker(t *testing.T) {
	cat := testCatalog(t, "a", "b", "lookup")
	req := newRequest()
	if _, err := Prepare(req, emulated, cat); err != nil {
		t.Fatal(err)
	}
	var checker RequestChecker
	for range 2 {
		if err := checker.Check(req, emulated); err != nil {
			t.Fatalf("Check: %v", err)
		}
	}
	if len(checker.memo.results) != 1 {
		t.Errorf("checker remembers %d schemas, want 1", len(checker.memo.results))
	}
	tampered := *req
	tampered.Tools = append(slices.Clone(req.Tools), snap("c").Definition())
	wantRule(t, checker.Check(&tampered, emulated), RuleDeclarations, -1, -1)
}
