package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/goa-discovery/goa-discovery/runtime"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// transferPayload has a server-only "tenant" and a sensitive "account".
const transferPayload = `{"type":"object","properties":{"account":{"type":"string"},"amount":{"type":"integer","minimum":1},` +
	`"tenant":{"type":"string"}},"required":["account","amount","tenant"],"additionalProperties":false}`

// opsToolset is a registry toolset whose tools have full contracts: a
// transfer with server-only and sensitive fields, a confirmation and a
// result schema its results meet, and a report whose results break its
// result schema.
func opsToolset() tools.ToolsetSchema {
	return tools.ToolsetSchema{Name: "ops", Version: "1.0.0", Tools: []tools.ToolSchema{
		{
			Name: "ops.transfer", Description: "Transfer an amount from an account",
			Payload: json.RawMessage(transferPayload),
			Result:  json.RawMessage(`{"type":"object","properties":{"tool":{"type":"string"}},"required":["tool"]}`),
			Contract: &tools.Contract{
				ServerOnlyFields: []string{"tenant"},
				Fields:           []tools.FieldMeta{{Path: "/account", Sensitive: true}},
				Confirmation:     &tools.Confirmation{Title: "Transfer", Template: "Transfer {{ .amount }} from {{ .account }}?"},
			},
		},
		{
			Name: "ops.report", Description: "Report on an account",
			Payload: json.RawMessage(toolPayload),
			Result:  json.RawMessage(`{"type":"object","required":["status"]}`),
		},
	}}
}

// TestRegistryCallsFollowTheCompiledContract checks that registry tools are
// admitted, confirmed and answered by the spec contract.Compile makes of
// their record: arguments validated against the schema the model sees,
// server-only fields refused, sensitive fields masked in confirmations,
// results validated against the result schema.
func TestRegistryCallsFollowTheCompiledContract(t *testing.T) {
	reg := newMemoryRegistry()
	reg.publish(t, opsToolset())
	client := newScriptedClient(
		respond(t,
			callPart("c1", "ops_transfer", `{"account":"acct-7","amount":5}`),
			callPart("c2", "ops_transfer", `{"account":"acct-7","amount":5,"tenant":"other"}`),
			callPart("c3", "ops_transfer", `{"account":"acct-7","amount":0}`),
			callPart("c4", "ops_report", `{"id":"r1"}`),
		),
		final(t, "done"),
	)
	confirmer := &answeringConfirmer{yes: true}
	rt := runtime.New(runtime.WithConfirmer(confirmer))
	if err := rt.RegisterRegistry("company", reg); err != nil {
		t.Fatal(err)
	}
	a := runtime.AgentRegistration{Name: "ops", Registries: []runtime.RegistrySource{{Registry: "company", Toolset: "ops"}}, Planner: plannerFor(client)}
	if err := rt.RegisterAgent(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	out, err := rt.Client("ops").Run(context.Background(), userSays("transfer"))
	if err != nil {
		t.Fatal(err)
	}
	if params := string(client.requests[0].Tools[0].Parameters); strings.Contains(params, "tenant") {
		t.Errorf("the model sees the server-only field: %s", params)
	}
	results := toolResults(out.Messages)
	cases := []struct {
		call    string
		isError bool
		content string
	}{
		{"c1", false, `"tool":"ops.transfer"`},
		{"c2", true, `"tenant" is filled by the server`},
		{"c3", true, `Invalid arguments for "ops_transfer"`},
		{"c4", true, "invalid result"},
	}
	for _, tc := range cases {
		r := results[tc.call]
		if r.IsError != tc.isError || !strings.Contains(r.Content, tc.content) {
			t.Errorf("result of %s = %+v, want error %v containing %q", tc.call, r, tc.isError, tc.content)
		}
	}
	if len(reg.calls) != 2 || reg.calls[0].CallID != "c1" || reg.calls[1].CallID != "c4" {
		t.Errorf("forwarded %+v, want c1 and c4 only", reg.calls)
	}
	if len(confirmer.shown) != 1 || confirmer.shown[0].Text != "Transfer 5 from "+contract.Masked+"?" || confirmer.shown[0].Title != "Transfer" {
		t.Errorf("confirmer was shown %+v, want the account masked", confirmer.shown)
	}
	if len(out.Calls) != 2 || out.Calls[0].Source.Token == "" {
		t.Fatalf("recorded calls %+v", out.Calls)
	}
	// The record decodes and confirms from its own definition.
	rec := out.Calls[0]
	if args, err := rec.DecodeArguments(); err != nil || string(args) != `{"account":"acct-7","amount":5}` {
		t.Errorf("DecodeArguments = %s, %v", args, err)
	}
	rec.Arguments = json.RawMessage(`{"account":"acct-7","amount":5,"tenant":"other"}`)
	if _, err := rec.DecodeArguments(); !errors.Is(err, tools.ErrPayloadInvalid) {
		t.Errorf("DecodeArguments with a server-only field = %v, want tools.ErrPayloadInvalid", err)
	}
}

// TestRegistryContractThatDoesNotCompile checks that a registry record whose
// result schema does not compile fails the step that calls it, naming the
// tool, instead of running the call unchecked.
func TestRegistryContractThatDoesNotCompile(t *testing.T) {
	reg := newMemoryRegistry()
	ts := opsToolset()
	ts.Tools[1].Result = json.RawMessage(`{"type":"objekt"}`)
	reg.publish(t, ts)
	client := newScriptedClient(respond(t, callPart("c1", "ops_report", `{"id":"r1"}`)), final(t, "done"))
	rt := registryRuntime(t, reg, client, []runtime.RegistrySource{{Registry: "company", Toolset: "ops"}})
	_, err := rt.Client("generalist").Run(context.Background(), userSays("report"))
	if !errors.Is(err, runtime.ErrCatalog) || !errors.Is(err, tools.ErrInvalidSchema) || !strings.Contains(err.Error(), `"ops.report"`) {
		t.Fatalf("run error = %v, want a catalog error naming ops.report", err)
	}
	if len(reg.calls) != 0 {
		t.Errorf("forwarded %+v", reg.calls)
	}
}

// pinningRegistry is a memoryRegistry test double that also checks pinned
// versions itself, recording the versions it was asked for.
type pinningRegistry struct {
	*memoryRegistry
	mu     sync.Mutex
	pinned []string
}

// errVersionMismatch is the double's refusal of a version that is not
// current.
var errVersionMismatch = errors.New("version_mismatch")

func (r *pinningRegistry) ResolveToolsetVersion(ctx context.Context, name, version string) (*runtime.ResolvedToolset, error) {
	r.mu.Lock()
	r.pinned = append(r.pinned, name+"@"+version)
	r.mu.Unlock()
	ts, err := r.ResolveToolset(ctx, name)
	if err != nil {
		return nil, err
	}
	if ts.Schema.Version != version {
		return nil, fmt.Errorf("%w: %s is at %s", errVersionMismatch, name, ts.Schema.Version)
	}
	return ts, nil
}

func TestPinnedVersionReachesTheRegistry(t *testing.T) {
	cases := []struct {
		name    string
		version string
		wantErr error
	}{
		{"current version", "1.0.0", nil},
		{"older version", "0.9.0", errVersionMismatch},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			reg := &pinningRegistry{memoryRegistry: newMemoryRegistry()}
			reg.publish(t, opsToolset())
			client := newScriptedClient(final(t, "done"))
			rt := runtime.New()
			if err := rt.RegisterRegistry("company", reg); err != nil {
				t.Fatal(err)
			}
			src := runtime.RegistrySource{Registry: "company", Toolset: "ops", Version: tc.version}
			a := runtime.AgentRegistration{Name: "ops", Registries: []runtime.RegistrySource{src}, Planner: plannerFor(client)}
			if err := rt.RegisterAgent(context.Background(), a); err != nil {
				t.Fatal(err)
			}
			_, err := rt.Client("ops").Run(context.Background(), userSays("hi"))
			if tc.wantErr == nil && err != nil {
				t.Fatalf("run: %v", err)
			}
			if tc.wantErr != nil && (!errors.Is(err, tc.wantErr) || !errors.Is(err, runtime.ErrCatalog)) {
				t.Fatalf("run error = %v, want a catalog error wrapping %v", err, tc.wantErr)
			}
			if want := "ops@" + tc.version; len(reg.pinned) != 1 || reg.pinned[0] != want {
				t.Errorf("registry was asked for %v, want [%s]", reg.pinned, want)
			}
		})
	}
}

var _ runtime.PinnedVersionResolver = (*pinningRegistry)(nil)

// TestConfirmationMasksSensitiveFields checks a record's confirmation on
// its own: sensitive fields masked, the rest as sent.
func TestConfirmationMasksSensitiveFields(t *testing.T) {
	def := opsToolset().Tools[0]
	rec := runtime.CallRecord{CallID: "c1", Tool: def.Name, Definition: def, Arguments: json.RawMessage(`{"account":"acct-7","amount":12}`)}
	title, text, ok, err := rec.Confirmation()
	if err != nil || !ok || title != "Transfer" || text != "Transfer 12 from "+contract.Masked+"?" {
		t.Fatalf("Confirmation = %q, %q, %v, %v", title, text, ok, err)
	}
}
