package contract

import "testing"

func BenchmarkCompile(b *testing.B) {
	rec := lookupRecord()
	for b.Loop() {
		if _, err := Compile(&rec); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPayloadDecode(b *testing.B) {
	rec := lookupRecord()
	spec, err := Compile(&rec)
	if err != nil {
		b.Fatal(err)
	}
	payload := []byte(`{"id":"r1","limit":20}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := spec.Payload.Decode(payload); err != nil {
			b.Fatal(err)
		}
	}
}
