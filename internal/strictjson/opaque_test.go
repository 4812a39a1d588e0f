package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// hasDuplicateKey is the reference the byte scanner is checked against:
// a token walk of valid JSON that reports whether some object repeats a
// key.
func hasDuplicateKey(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var walk func() bool
	walk = func() bool {
		tok, _ := dec.Token()
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			dup := false
			for dec.More() {
				k, _ := dec.Token()
				key := k.(string)
				dup = dup || seen[key]
				seen[key] = true
				dup = walk() || dup
			}
			dec.Token()
			return dup
		case json.Delim('['):
			dup := false
			for dec.More() {
				dup = walk() || dup
			}
			dec.Token()
			return dup
		}
		return false
	}
	return walk()
}

// FuzzScanDuplicates: on any valid JSON value the byte scanner finds a
// duplicate key exactly when the token walk does, escapes included, and
// never panics.
func FuzzScanDuplicates(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":{"a":2}}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `[{"x":[1,{"y":1,"y":2}]}]`,
		`{"a\"b":1,"a\\"b":2}`, ` {"k" : [ true , null , -1.5e3 , "s\\" ] } `, `"plain"`, `12`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		_, err := scanDuplicates(data, skipSpace(data, 0), nil)
		if err != nil && !errors.Is(err, ErrDuplicateKey) {
			t.Fatalf("scan error %v is not a duplicate key", err)
		}
		if want := hasDuplicateKey(data); want != (err != nil) {
			t.Fatalf("scan of %s: %v, reference finds a duplicate: %v", data, err, want)
		}
	})
}
