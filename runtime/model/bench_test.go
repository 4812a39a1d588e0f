package model

import (
	"encoding/json"
	"testing"
)

// longHistory repeats the test conversation's discover/call cycle n times.
func longHistory(n int) []Message {
	base := conversation()
	var out []Message
	for range n {
		out = append(out, base[1:len(base)-1]...)
	}
	return out
}

func BenchmarkValidateMessages(b *testing.B) {
	history := longHistory(50) // 350 messages
	b.ReportAllocs()
	for b.Loop() {
		if err := ValidateMessages(history); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHistoryJSON(b *testing.B) {
	history := longHistory(50)
	raw, err := json.Marshal(history)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var got []Message
		if err := json.Unmarshal(raw, &got); err != nil {
			b.Fatal(err)
		}
	}
}
