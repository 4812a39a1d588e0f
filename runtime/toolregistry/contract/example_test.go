package contract_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// A tool record that arrives at run time, here one a payments service
// publishes in a registry, compiles into the same validating codecs that
// generated code emits. The server fills tenant_id, so the model never sees
// it and may not send it.
func ExampleCompile() {
	record := tools.ToolSchema{
		Name:        "payments.refund_payment",
		Description: "Refund a customer payment in full or in part",
		Payload: json.RawMessage(`{"type":"object","properties":{
			"payment_id":{"type":"string"},
			"amount_cents":{"type":"integer","minimum":1},
			"tenant_id":{"type":"string"}},
			"required":["payment_id","tenant_id"],"additionalProperties":false}`),
		Result:   json.RawMessage(`{"type":"object","properties":{"refund_id":{"type":"string"}},"required":["refund_id"]}`),
		Contract: &tools.Contract{ServerOnlyFields: []string{"tenant_id"}},
	}
	spec, err := contract.Compile(&record)
	if err != nil {
		fmt.Println(err)
		return
	}
	modelSchema, err := contract.ModelSchema(&record)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("the model sees %s\n", modelSchema)

	for _, payload := range []string{
		`{"payment_id":"pay_1","amount_cents":500}`,
		`{"payment_id":"pay_1","amount_cents":0}`,
		`{"payment_id":"pay_1","tenant_id":"acme"}`,
	} {
		_, err := spec.Payload.Decode([]byte(payload))
		fmt.Printf("%s valid: %t\n", payload, !errors.Is(err, tools.ErrPayloadInvalid))
	}

	_, err = spec.Result.Decode([]byte(`{"refund":"re_1"}`))
	fmt.Println("result without refund_id valid:", err == nil)
	// Output:
	// the model sees {"additionalProperties":false,"properties":{"amount_cents":{"type":"integer","minimum":1},"payment_id":{"type":"string"}},"required":["payment_id"],"type":"object"}
	// {"payment_id":"pay_1","amount_cents":500} valid: true
	// {"payment_id":"pay_1","amount_cents":0} valid: false
	// {"payment_id":"pay_1","tenant_id":"acme"} valid: false
	// result without refund_id valid: false
}

// A provider fingerprints the toolset it publishes; the registry computes the
// same fingerprint and refuses a publish whose fingerprint differs. Any change
// to the record, here its version, changes the fingerprint.
func ExampleFingerprint() {
	toolset := tools.ToolsetSchema{
		Name:        "payments",
		Description: "Payments and refunds",
		Version:     "2.3.0",
		Tools: []tools.ToolSchema{{
			Name:        "payments.refund_payment",
			Description: "Refund a customer payment",
			Payload:     json.RawMessage(`{"type":"object","properties":{"payment_id":{"type":"string"}},"required":["payment_id"]}`),
		}},
	}
	first, err := contract.Fingerprint(&toolset)
	if err != nil {
		fmt.Println(err)
		return
	}
	again, _ := contract.Fingerprint(&toolset)
	toolset.Version = "2.4.0"
	bumped, _ := contract.Fingerprint(&toolset)
	fmt.Println(first[:len("sha256:")], first == again, first == bumped)
	// Output:
	// sha256: true false
}
