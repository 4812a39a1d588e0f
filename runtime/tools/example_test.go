package tools_test

import (
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// LookupArgs is the kind of argument type generated code declares.
type LookupArgs struct {
	ID string `json:"id"`
}

// Generated toolset packages compile each schema once and instantiate a
// TypedCodec for the tool's argument type.
func ExampleTypedCodec() {
	schema := tools.MustCompileSchema([]byte(`{"type":"object","properties":{"id":{"type":"string","minLength":1}},"required":["id"],"additionalProperties":false}`))
	codec := tools.NewTypedCodec[LookupArgs](schema)

	args, err := codec.DecodeValue([]byte(`{"id":"r1"}`))
	fmt.Println(args.ID, err)

	_, err = codec.DecodeValue([]byte(`{}`))
	fmt.Println(err)
	// Output:
	// r1 <nil>
	// value does not match its schema
	//   at (root): missing property 'id'
}

func ExampleSchemaFingerprint() {
	fp, err := tools.SchemaFingerprint("records", []tools.ToolSchema{{
		Name:        "records.lookup",
		Description: "Look up a record by id",
		Payload:     []byte(`{"type":"object"}`),
	}})
	fmt.Println(len(fp), fp[:7], err)
	// Output: 71 sha256: <nil>
}
