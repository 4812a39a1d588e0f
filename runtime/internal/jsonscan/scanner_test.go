package jsonscan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// readString scans the string token in, with a strict or lenient scanner,
// and returns its value and whether it was plain.
func readString(in string, lenient bool) (string, bool, error) {
	var s Scanner[string]
	s.Reset(in, lenient)
	plain, err := s.String()
	if err != nil {
		return "", false, err
	}
	end := s.Pos()
	s.SkipSpace()
	if !s.AtEnd() {
		return "", false, s.Errorf("data after the string")
	}
	return string(AppendString(nil, in[:end])), plain, nil
}

func TestString(t *testing.T) {
	cases := []struct {
		name, in string
		want     string // the value, or part of the error
		plain    bool
		strict   bool // a strict scanner accepts it
		lenient  bool // a lenient scanner accepts it
	}{
		{"ascii", `"abc"`, "abc", true, true, true},
		{"utf-8", `"é😀"`, "é😀", true, true, true},
		{"escapes", `"a\"\\\/\b\f\n\r\t"`, "a\"\\/\b\f\n\r\t", false, true, true},
		{"unicode escape", `"\u00e9\u00E9"`, "éé", false, true, true},
		{"surrogate pair", `"\ud83d\ude00"`, "😀", false, true, true},
		{"lone high surrogate", `"\ud83d"`, "unpaired surrogate", false, false, true},
		{"lone low surrogate", `"\ude00x"`, "unpaired surrogate", false, false, true},
		{"invalid utf-8", "\"\xff\"", "invalid UTF-8", true, false, true},
		{"encoded surrogate", "\"\xed\xa0\x80\"", "invalid UTF-8", true, false, true},
		{"control character", "\"a\nb\"", "control character", false, false, false},
		{"invalid escape", `"\x"`, `invalid escape \x`, false, false, false},
		{"short unicode escape", `"\u12"`, `short \u escape`, false, false, false},
		{"invalid unicode escape", `"\u12g4"`, `invalid \u escape "12g4"`, false, false, false},
		{"unterminated", `"abc`, "unterminated string", false, false, false},
		{"unterminated escape", `"\`, "unterminated escape", false, false, false},
	}
	for _, tc := range cases {
		for _, lenient := range []bool{false, true} {
			ok := tc.strict
			if lenient {
				ok = tc.lenient
			}
			got, plain, err := readString(tc.in, lenient)
			switch {
			case !ok && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s (lenient %v): error %v, want ErrInvalid containing %q", tc.name, lenient, err, tc.want)
			case ok && err != nil:
				t.Errorf("%s (lenient %v): %v", tc.name, lenient, err)
			case ok && lenient && !tc.strict:
				var ref string // encoding/json's reading, for the escapes
				if json.Unmarshal([]byte(tc.in), &ref) == nil && utf8.ValidString(tc.in) && got != ref {
					t.Errorf("%s (lenient): %q, encoding/json reads %q", tc.name, got, ref)
				}
			case ok && (got != tc.want || plain != tc.plain):
				t.Errorf("%s (lenient %v): %q, plain %v; want %q, plain %v", tc.name, lenient, got, plain, tc.want, tc.plain)
			}
		}
	}
}

func TestNumber(t *testing.T) {
	cases := []struct {
		in   string
		want string // part of the error, "" for none
	}{
		// The value is 0.D × 10^n; n within ±1e9 unless the value is zero.
		{"0", ""}, {"-0.0e-5", ""}, {"12.50E+3", ""}, {"1e999999999", ""}, {"0.001e-999999997", ""},
		{"0e9999999999", ""}, {"0e00000000000000000000001", ""},
		{"1e1000000000", "exponent out of range"},
		{"0.001e-999999999", "exponent out of range"},
		{"0e99999999999", "exponent out of range"}, // 11 digits
		{"1e12345678901", "exponent out of range"},
		{"-", "invalid number"}, {"-a", "invalid number"},
		{"1.", "no digits after '.'"}, {"1.e3", "no digits after '.'"},
		{"1e", "no digits in its exponent"}, {"1e+", "no digits in its exponent"},
	}
	for _, tc := range cases {
		var s Scanner[[]byte]
		s.Reset([]byte(tc.in), false)
		n, err := s.Number()
		if tc.want == "" {
			if err != nil || n.End != len(tc.in) {
				t.Errorf("Number(%s) = %+v, %v", tc.in, n, err)
			}
			continue
		}
		if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Number(%s) error = %v, want ErrInvalid containing %q", tc.in, err, tc.want)
		}
	}
}

func TestLiteral(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"true", ""}, {"false", ""}, {"null", ""},
		{"tru", "unexpected character 't'"}, {"nul", "unexpected character 'n'"}, {"x", "unexpected character 'x'"}, {"", "end of input"},
	} {
		var s Scanner[string]
		s.Reset(tc.in, false)
		err := s.Literal()
		if tc.want == "" && (err != nil || !s.AtEnd()) || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Literal(%q) = %v, at %d; want %q", tc.in, err, s.Pos(), tc.want)
		}
	}
}

// TestDepth checks the one nesting limit: MaxDepth open arrays and objects,
// not one more.
func TestDepth(t *testing.T) {
	var s Scanner[string]
	s.Reset("", false)
	for i := 0; i < MaxDepth; i++ {
		if err := s.Enter(); err != nil {
			t.Fatalf("Enter %d: %v", i+1, err)
		}
	}
	if err := s.Enter(); err == nil || !strings.Contains(err.Error(), "nesting deeper than 1000") {
		t.Fatalf("Enter %d = %v, want the nesting error", MaxDepth+1, err)
	}
	s.Leave()
	s.Leave()
	if err := s.Enter(); err != nil {
		t.Fatalf("Enter after Leave: %v", err)
	}
}

// FuzzString checks the string scanner against encoding/json: a lenient
// scanner accepts exactly the string tokens encoding/json accepts and
// decodes valid UTF-8 as it does; a strict one accepts a subset, with the
// same values.
func FuzzString(f *testing.F) {
	for _, s := range []string{`"a"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, "\"\xff\"", `"\x"`, `"\u12"`, `"a\nb"`, `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !strings.HasPrefix(in, `"`) {
			return
		}
		lenient, _, lerr := readString(in, true)
		var ref string
		refErr := json.Unmarshal([]byte(in), &ref)
		if (lerr == nil) != (refErr == nil) {
			t.Fatalf("lenient scanner: %v; encoding/json: %v", lerr, refErr)
		}
		if lerr == nil && utf8.ValidString(in) && lenient != ref {
			t.Fatalf("lenient scanner reads %q, encoding/json %q", lenient, ref)
		}
		strict, _, serr := readString(in, false)
		if serr == nil && (lerr != nil || strict != lenient || !utf8.ValidString(strict)) {
			t.Fatalf("strict scanner reads %q (lenient %q, %v)", strict, lenient, lerr)
		}
	})
}

// FuzzNumber checks the number scanner against encoding/json's grammar: a
// number it reads whole is valid JSON, and a valid number is read whole
// unless its exponent is out of range.
func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-1.5e+3", "1e1000000001", "01", "1.", "-", "0e000000000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if in == "" || in[0] != '-' && (in[0] < '0' || in[0] > '9') {
			return
		}
		var s Scanner[string]
		s.Reset(in, false)
		n, err := s.Number()
		s.SkipSpace()
		whole := err == nil && s.AtEnd()
		var v json.Number
		valid := json.Unmarshal([]byte(in), &v) == nil
		if whole && !valid {
			t.Fatalf("Number(%q) read it whole; encoding/json refuses it", in)
		}
		if valid && !whole && (err == nil || !strings.Contains(err.Error(), "exponent out of range")) {
			t.Fatalf("Number(%q) = %+v, %v; encoding/json accepts it", in, n, err)
		}
	})
}

// skipText skips the one value of in, between white space, with a strict
// or lenient scanner, and returns the offset where the value ended.
func skipText(in string, lenient bool) (int, error) {
	var s Scanner[string]
	s.Reset(in, lenient)
	s.SkipSpace()
	if err := s.Skip(); err != nil {
		return s.Pos(), err
	}
	end := s.Pos()
	s.SkipSpace()
	if !s.AtEnd() {
		return end, s.Errorf("data after the value")
	}
	return end, nil
}

func TestSkip(t *testing.T) {
	deep := func(n int, open, close string) string { return strings.Repeat(open, n) + strings.Repeat(close, n) }
	cases := []struct {
		name, in string
		want     string // part of the error, "" for none
		lenient  bool   // a lenient scanner accepts it (when want is not "")
	}{
		{name: "literal", in: "true"},
		{name: "number", in: " -12.5e+3 "},
		{name: "number beyond MaxExponent", in: "1e99999999999999"},
		{name: "string", in: `"a\"]}\u00e9"`},
		{name: "empty containers", in: `[{}, [], {"a":[]}]`},
		{name: "object", in: `{"a":1,"b":[true,false,null],"c":{"d":"}"},"e":"]"}`},
		{name: "white space everywhere", in: " { \"a\" : [ 1 , { } ] , \"b\" :\n\"c\"\t} "},
		{name: "deeper than MaxDepth", in: deep(MaxDepth+1, "[", "]")},
		{name: "objects deeper than MaxDepth", in: strings.Repeat(`{"a":`, MaxDepth+1) + "1" + strings.Repeat("}", MaxDepth+1)},
		{name: "100,000 deep, arrays and objects", in: deep(50_000, `[{"k":`, "") + "0" + strings.Repeat("}]", 50_000)},
		{name: "unpaired surrogate", in: `["\ud800"]`, want: "unpaired surrogate", lenient: true},
		{name: "invalid utf-8", in: "{\"a\":\"\xff\"}", want: "invalid UTF-8", lenient: true},
		{name: "empty", in: "", want: "unexpected end of input"},
		{name: "unterminated array", in: "[1,", want: "unexpected end of input"},
		{name: "unterminated object", in: `{"a":1`, want: "unexpected end of input in object"},
		{name: "unterminated deep", in: deep(300, "[", "]")[:599], want: "unexpected end of input in array"},
		{name: "unterminated string", in: `["a]`, want: "unterminated string"},
		{name: "missing comma", in: `[1 2]`, want: "want ',' or ']' in array"},
		{name: "missing comma in object", in: `{"a":1 "b":2}`, want: "want ',' or '}' in object"},
		{name: "mismatched bracket", in: `[1}`, want: "want ',' or ']' in array"},
		{name: "mismatched deep bracket", in: strings.Repeat("[", 299) + `{"a":` + deep(299, "[", "]") + "]", want: "want ',' or '}' in object"},
		{name: "trailing comma", in: `[1,]`, want: "unexpected character ']'"},
		{name: "trailing comma in object", in: `{"a":1,}`, want: "want an object key"},
		{name: "key not a string", in: `{1:2}`, want: "want an object key"},
		{name: "missing colon", in: `{"a" 1}`, want: "want ':' after object key"},
		{name: "bad number", in: `[01]`, want: "want ',' or ']' in array"},
		{name: "bad fraction", in: `[1.]`, want: "no digits after '.'"},
		{name: "bad literal", in: `[nul]`, want: "unexpected character 'n'"},
		{name: "control character", in: "[\"a\tb\"]", want: "control character"},
		{name: "two values", in: `1 2`, want: "data after the value"},
	}
	for _, tc := range cases {
		for _, lenient := range []bool{false, true} {
			end, err := skipText(tc.in, lenient)
			ok := tc.want == "" || lenient && tc.lenient
			switch {
			case ok && err != nil:
				t.Errorf("%s (lenient %v): %v", tc.name, lenient, err)
			case ok && end != len(strings.TrimRight(tc.in, " \t\r\n")):
				t.Errorf("%s (lenient %v): ended at %d, want the end of the value", tc.name, lenient, end)
			case !ok && (err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("%s (lenient %v): error %v, want ErrInvalid containing %q", tc.name, lenient, err, tc.want)
			}
		}
	}
}

// TestSkipReuse: a scanner keeps Skip's record of what is open from one
// value to the next, and a value reads the same after any other.
func TestSkipReuse(t *testing.T) {
	objects := strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("}", 300)
	arrays := strings.Repeat("[", 400) + strings.Repeat("]", 400)
	var s Scanner[string]
	for _, tc := range []struct{ in, want string }{
		{objects, ""}, {arrays, ""}, {objects, ""},
		{strings.Repeat("[", 300) + "1" + strings.Repeat("}", 300), "want ',' or ']' in array"},
		{strings.Repeat(`{"a":`, 300) + "1" + strings.Repeat("]", 300), "want ',' or '}' in object"},
		{arrays, ""},
	} {
		s.Reset(tc.in, false)
		err := s.Skip()
		if tc.want == "" && (err != nil || !s.AtEnd()) || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("Skip(%.20s...) = %v at %d, want %q", tc.in, err, s.Pos(), tc.want)
		}
	}
}

// FuzzSkip checks Skip against encoding/json: a lenient scanner skips
// exactly the texts json.Valid accepts (within encoding/json's nesting
// limit), ending at the end of the value; a strict one a subset, refusing
// only invalid UTF-8 and unpaired surrogate escapes beyond them.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,-2.5e3,true,false,null,"x\"y"],"b":{}}`, `[[[[]]]]`, `[1 2]`, `{"a" 1}`, `[1,]`, `{"a":1,}`,
		`["\ud800"]`, "[\"\xff\"]", `1e99999999999`, `[01]`, `{"a":{"b":[}]}`, ` "a" `, `[`, `]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.Count(in, "[")+strings.Count(in, "{") > 10_000 {
			return // beyond encoding/json's nesting limit
		}
		end, lerr := skipText(in, true)
		valid := json.Valid([]byte(in))
		if (lerr == nil) != valid {
			t.Fatalf("lenient Skip: %v; json.Valid: %v", lerr, valid)
		}
		if lerr == nil && end != len(strings.TrimRight(in, " \t\r\n")) {
			t.Fatalf("lenient Skip ended at %d of %q", end, in)
		}
		_, serr := skipText(in, false)
		switch {
		case serr == nil && lerr != nil:
			t.Fatalf("strict Skip accepts what a lenient one refuses: %v", lerr)
		case serr != nil && lerr == nil && !strings.Contains(serr.Error(), "invalid UTF-8") && !strings.Contains(serr.Error(), "unpaired surrogate"):
			t.Fatalf("strict Skip: %v; a lenient one accepts it", serr)
		}
	})
}
