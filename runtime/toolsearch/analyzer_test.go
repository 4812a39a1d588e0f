package toolsearch

import (
	"slices"
	"testing"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"empty", "", nil},
		{"blank", " \t\n ", nil},
		{"regexp", ".*", nil},
		{"only stop words", "the of and a to", nil},
		{"camelCase with acronym", "HTTPServerStatus", []string{"http", "server", "status", "httpserverstatus"}},
		{"lower camel", "getUserProfile", []string{"get", "user", "profil", "getuserprofil"}},
		{"snake case", "get_user_by_id", []string{"get", "user", "id"}},
		{"kebab case", "list-open-tickets", []string{"list", "open", "ticket"}},
		{"dots", "math.factorial", []string{"math", "factorial"}},
		{"slashes", "api/v2/users", []string{"api", "v2", "user"}},
		{"digits stay with letters", "sha256 base64Encode", []string{"sha256", "base64", "encod", "base64encode"}},
		{"digit then capital", "HTTP2Server", []string{"http2", "server", "http2server"}},
		{"punctuation separates", "weather, (city); days!", []string{"weather", "citi", "day"}},
		{"unicode letters lower-cased", "Ünïcode STRAẞE", []string{"ünïcode", "straße"}},
		{"marks stay in the word", "cafe\u0301 menu", []string{"cafe\u0301", "menu"}},
		{"invalid UTF-8 separates", "abc\xffdef", []string{"abc", "def"}},
		{"numbers", "add 12 and 30", []string{"add", "12", "30"}},
		{"japanese run gives pairs", "天気予報を取得", []string{"天気", "気予", "予報", "報を", "を取", "取得"}},
		{"one character alone", "天 気", []string{"天", "気"}},
		{"katakana with the prolonged sound mark", "ユーザー", []string{"ユー", "ーザ", "ザー"}},
		{"chinese", "获取天气", []string{"获取", "取天", "天气"}},
		{"korean words with particles", "날씨를 조회", []string{"날씨", "씨를", "조회"}},
		{"thai marks stay with their letter", "พยากรณ์อากาศ", []string{"พย", "ยา", "าก", "กร", "รณ์", "ณ์อ", "อา", "าก", "กา", "าศ"}},
		{"latin and unspaced scripts split", "Go言語のAPI", []string{"go", "言語", "語の", "api"}},
		{"sentence", "Find the area of a triangle with base 10", []string{"find", "area", "triangl", "bas", "10"}},
		{"possessive", "Adriel's projects", []string{"adriel", "project"}},
		{"contractions", "what's it? I'd say we'll go, I'm sure you're right: don’t", []string{"say", "go", "sur", "right", "don"}},
		{"capital clitic", "JOHN'S", []string{"john"}},
		{"a quoted letter stays", "the letter 's' and 'm'", []string{"letter", "s", "m"}},
		{"other words after an apostrophe stay", "rock'n'roll o'clock", []string{"rock", "n", "roll", "o", "clock"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Terms(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("Terms(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestTermsConflateForms checks that inflected and derived forms of a word
// meet in one term.
func TestTermsConflateForms(t *testing.T) {
	groups := [][]string{
		{"calculate", "calculates", "calculated", "calculating", "calculation", "calculations", "calculator"},
		{"run", "running", "runs"},
		{"file", "files", "filed"},
		{"box", "boxes"},
		{"class", "classes"},
		{"search", "searches", "searching", "searched"},
		{"statistic", "statistics", "statistical"},
		{"organize", "organization"},
		{"available", "availability"},
		{"similar", "similarity"},
		{"personal", "personality"},
		{"compatible", "compatibility"},
		{"rely", "reliable", "reliability"},
		{"electric", "electricity"},
		{"compare", "comparable"},
		{"movie", "movies"},
		{"query", "queries", "queried"},
		{"study", "studies", "studying", "studied"},
		{"day", "days"},
	}
	for _, g := range groups {
		want := Terms(g[0])
		if len(want) != 1 {
			t.Fatalf("Terms(%q) = %q, want one term", g[0], want)
		}
		for _, w := range g[1:] {
			if got := Terms(w); !slices.Equal(got, want) {
				t.Errorf("Terms(%q) = %q, want %q like %q", w, got, want, g[0])
			}
		}
	}
}

func TestStemKeepsWords(t *testing.T) {
	tests := []struct{ word, want string }{
		{"status", "status"},
		{"analysis", "analysis"},
		{"class", "class"},
		{"string", "string"},
		{"need", "need"},
		{"speed", "speed"},
		{"bus", "bus"},
		{"id", "id"},
		{"v2", "v2"},
		{"ipv4s", "ipv4s"},
		{"called", "call"},
		{"mapped", "map"},
		{"happiness", "happi"},
		{"table", "tabl"},
		{"enable", "enabl"},
		{"capability", "capabiliti"},
		{"quality", "qualiti"},
	}
	for _, tt := range tests {
		if got := string(stem([]byte(tt.word))); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestFieldSetString(t *testing.T) {
	tests := []struct {
		set  FieldSet
		want string
	}{
		{0, ""},
		{1 << FieldName, "name"},
		{1<<FieldDescription | 1<<FieldParamName, "description,param_name"},
		{1<<numFields - 1, "name,title,description,param_name,param_description,extra,namespace"},
	}
	for _, tt := range tests {
		if got := tt.set.String(); got != tt.want {
			t.Errorf("FieldSet(%b).String() = %q, want %q", tt.set, got, tt.want)
		}
	}
	if got := Field(9).String(); got != "field(9)" {
		t.Errorf("Field(9).String() = %q", got)
	}
}
