package strictjson

// Opaque values: those decoded into json.RawMessage, interfaces or types
// that decode themselves. They are read whole with encoding/json's scanner,
// which checks their syntax, then scanned once more here for duplicate
// keys; reading them token by token would cost an allocation a token.

import (
	"encoding/json"
	"fmt"
	"strings"
)

// opaque reads the next value whole and refuses duplicate keys in it.
func (w *walker) opaque(at *location) error {
	var raw json.RawMessage
	if err := w.dec.Decode(&raw); err != nil {
		if strings.Contains(err.Error(), "exceeded max depth") {
			return fmt.Errorf("%w: more than %d levels at %s", ErrTooDeep, MaxDepth, pointer(at))
		}
		return syntaxError(err)
	}
	_, err := scanDuplicates(raw, skipSpace(raw, 0), at)
	return err
}

// scanDuplicates scans the valid JSON value that starts at b[i] and
// returns the index after it, or the first duplicate key of an object in
// it.
func scanDuplicates(b []byte, i int, at *location) (int, error) {
	switch b[i] {
	case '{':
		var keys map[string]bool
		i = skipSpace(b, i+1)
		for b[i] != '}' {
			end := stringEnd(b, i)
			key := string(b[i+1 : end-1])
			if strings.IndexByte(key, '\\') >= 0 {
				_ = json.Unmarshal(b[i:end], &key) // valid JSON: a string
			}
			if keys == nil {
				keys = map[string]bool{}
			}
			if keys[key] {
				return 0, fmt.Errorf("%w %q at %s", ErrDuplicateKey, key, pointer(at))
			}
			keys[key] = true
			i = skipSpace(b, skipSpace(b, end)+1) // past the colon
			var err error
			if i, err = scanDuplicates(b, i, &location{parent: at, key: key, isKey: true}); err != nil {
				return 0, err
			}
			if i = skipSpace(b, i); b[i] == ',' {
				i = skipSpace(b, i+1)
			}
		}
		return i + 1, nil
	case '[':
		i = skipSpace(b, i+1)
		for n := 0; b[i] != ']'; n++ {
			var err error
			if i, err = scanDuplicates(b, i, &location{parent: at, index: n}); err != nil {
				return 0, err
			}
			if i = skipSpace(b, i); b[i] == ',' {
				i = skipSpace(b, i+1)
			}
		}
		return i + 1, nil
	case '"':
		return stringEnd(b, i), nil
	default: // a number, true, false or null
		for i < len(b) && !strings.ContainsRune(",]} \t\r\n", rune(b[i])) {
			i++
		}
		return i, nil
	}
}

// stringEnd returns the index after the string that starts at b[i].
func stringEnd(b []byte, i int) int {
	for i++; b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i + 1
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}
