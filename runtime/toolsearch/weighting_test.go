package toolsearch

import (
	"math"
	"testing"
)

func TestTermWeight(t *testing.T) {
	tests := []struct {
		term string
		want float64
	}{
		{"weather", 1},
		{"52", valueTermWeight},
		{"sha256", valueTermWeight},
		{"v2", valueTermWeight},
		{"天気", 1},
	}
	for _, tt := range tests {
		if got := termWeight(tt.term); got != tt.want {
			t.Errorf("termWeight(%q) = %v, want %v", tt.term, got, tt.want)
		}
	}
}

// TestValueTermsCountHalf checks that a term with a digit adds half of what
// an otherwise equal word adds, and that alone it still finds its tool.
func TestValueTermsCountHalf(t *testing.T) {
	ix := mustIndex(t, []Document{
		{Name: "hash", Description: "Hash sha256."},
		{Name: "draw", Description: "Draw circle."},
	})
	got := ix.Search("sha256 circle", 5)
	if len(got) != 2 || got[0].Name != "draw" || got[1].Name != "hash" {
		t.Fatalf("Search(sha256 circle) = %v, want draw then hash", got)
	}
	if ratio := got[1].Score / got[0].Score; math.Abs(ratio-valueTermWeight) > 1e-6 {
		t.Errorf("score of the value term over the word = %v, want %v", ratio, valueTermWeight)
	}
	if got := names(ix.Search("sha256", 5)); len(got) != 1 || got[0] != "hash" {
		t.Errorf("Search(sha256) = %v, want hash", got)
	}
}
