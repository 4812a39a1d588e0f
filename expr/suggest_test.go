package expr

import "testing"

func TestMeantName(t *testing.T) {
	tools := []string{"search_products", "get_product", "lookup", "search", "analyze"}
	cases := []struct {
		name, want string
	}{
		{"search", "search"},
		{"Search", "search"},
		{"SEARCH_PRODUCTS", "search_products"},
		{"SearchProducts", "search_products"},
		{"search-products", "search_products"},
		{"records.search", "search"},
		{"records.Serch", "search"},
		{"serch_products", "search_products"},
		{"search_prodcuts", "search_products"},
		{"serch", "search"},
		{"lokup", "lookup"},
		{"analyse", "analyze"},
		{"get_products", "get_product"},
		{"delete", ""},
		{"sarch_prodcts_x", ""},
		{"", ""},
	}
	for _, tc := range cases {
		if got := meantName(tc.name, tools); got != tc.want {
			t.Errorf("meantName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMeantNameTies(t *testing.T) {
	// "cat" is one edit from both "bat" and "car": no single meaning.
	if got := meantName("cat", []string{"bat", "car"}); got != "" {
		t.Errorf("meantName on a tie = %q, want no suggestion", got)
	}
	if got := meantName("cat", nil); got != "" {
		t.Errorf("meantName without candidates = %q, want no suggestion", got)
	}
}

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"search", "search", 0},
		{"serch", "search", 1},
		{"search", "serch", 1},
		{"prodcuts", "products", 1},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3},
		{"abcdef", "badcfe", 3},
	}
	for _, tc := range cases {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
