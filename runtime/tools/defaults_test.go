package tools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// pagedArgs is a test double of a generated argument type whose "limit"
// defaults to 20.
type pagedArgs struct {
	Query string `json:"query"`
	Limit *int   `json:"limit,omitzero"`
}

// SetDefaults sets Limit to 20 when it was omitted.
func (a *pagedArgs) SetDefaults() {
	if a == nil {
		return
	}
	if a.Limit == nil {
		a.Limit = new(20)
	}
}

const pagedPayload = `{"type":"object","properties":{"query":{"type":"string"},"limit":{"type":"integer","minimum":1,"default":20}},"required":["query"],"additionalProperties":false}`

func TestTypedCodecSetsDefaults(t *testing.T) {
	cases := []struct {
		name string
		data string
		want pagedArgs
	}{
		{"omitted takes the default", `{"query":"refund"}`, pagedArgs{Query: "refund", Limit: new(20)}},
		{"given is kept", `{"query":"refund","limit":5}`, pagedArgs{Query: "refund", Limit: new(5)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			byValue, err := NewTypedCodec[pagedArgs](mustCompile(t, pagedPayload)).DecodeValue([]byte(tc.data))
			if err != nil {
				t.Fatalf("DecodeValue[pagedArgs](%s): %v", tc.data, err)
			}
			if diff := cmp.Diff(tc.want, byValue); diff != "" {
				t.Errorf("DecodeValue[pagedArgs](%s) (-want +got):\n%s", tc.data, diff)
			}
			byPointer, err := NewTypedCodec[*pagedArgs](mustCompile(t, pagedPayload)).DecodeValue([]byte(tc.data))
			if err != nil {
				t.Fatalf("DecodeValue[*pagedArgs](%s): %v", tc.data, err)
			}
			if diff := cmp.Diff(&tc.want, byPointer); diff != "" {
				t.Errorf("DecodeValue[*pagedArgs](%s) (-want +got):\n%s", tc.data, diff)
			}
		})
	}
}

func TestTypedCodecDefaultsOnlyValidValues(t *testing.T) {
	codec := NewTypedCodec[pagedArgs](mustCompile(t, pagedPayload))
	got, err := codec.DecodeValue([]byte(`{"limit":0}`))
	if err == nil {
		t.Fatalf("DecodeValue of an invalid value = %+v, want an error", got)
	}
	if got.Limit != nil {
		t.Errorf("rejected value has Limit %d, want no default applied", *got.Limit)
	}
}

func TestTypedCodecNilPointerDefaults(t *testing.T) {
	codec := NewTypedCodec[*pagedArgs](mustCompile(t, `{"type":["object","null"]}`))
	got, err := codec.DecodeValue([]byte(`null`))
	if err != nil {
		t.Fatalf("DecodeValue(null): %v", err)
	}
	if got != nil {
		t.Fatalf("DecodeValue(null) = %+v, want nil", got)
	}
}

func TestDefaultsHookOf(t *testing.T) {
	cases := []struct {
		name string
		got  defaultsHook
		want defaultsHook
	}{
		{"struct with pointer method", defaultsHookOf[pagedArgs](), addrDefaults},
		{"pointer to it", defaultsHookOf[*pagedArgs](), valueDefaults},
		{"struct without", defaultsHookOf[lookupArgs](), noDefaults},
		{"interface", defaultsHookOf[Defaulter](), noDefaults},
		{"any", defaultsHookOf[any](), noDefaults},
	}
	for _, tc := range cases {
		if tc.got != tc.want {
			t.Errorf("%s: hook %d, want %d", tc.name, tc.got, tc.want)
		}
	}
}

func BenchmarkTypedCodecDecodeWithDefaults(b *testing.B) {
	codec := NewTypedCodec[pagedArgs](mustCompile(b, pagedPayload))
	data := []byte(`{"query":"refund"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := codec.DecodeValue(data); err != nil {
			b.Fatal(err)
		}
	}
}
