package gonames

import (
	"fmt"
	"strings"
	"unicode"
)

// JSONTag returns the json struct tag of a field for the JSON member name,
// optional fields with ",omitzero". A name "-" is written "-," (name "-"),
// not "-" (skip the field). It returns an error for a name encoding/json
// cannot carry in a tag (empty, or with a character other than letters,
// digits and !#$%&()*+-./:;<=>?@[]^_{|}~ and space, such as a comma or a
// quote): its field would be named after the Go field instead.
func JSONTag(name string, required bool) (string, error) {
	if err := CheckJSONName(name); err != nil {
		return "", err
	}
	switch {
	case !required:
		return name + ",omitzero", nil
	case name == "-":
		return "-,", nil
	}
	return name, nil
}

// CheckJSONName returns an error when a property name cannot be a JSON
// struct tag's name (JSONTag).
func CheckJSONName(name string) error {
	if name == "" {
		return fmt.Errorf("the empty property name cannot be a JSON struct tag's name")
	}
	for _, c := range name {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return fmt.Errorf("property name %q holds %q, which a JSON struct tag's name cannot hold (encoding/json would name the member after the Go field)", name, c)
		}
	}
	return nil
}
