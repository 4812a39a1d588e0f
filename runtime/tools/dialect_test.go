package tools

import (
	"errors"
	"testing"
)

func TestWithDialect(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"empty object", `{}`, `{"$schema":"https://json-schema.org/draft/2020-12/schema"}`},
		{"empty object with spaces", " { \n } ", `{"$schema":"https://json-schema.org/draft/2020-12/schema"` + " \n }"},
		{"members keep their order", `{"type":"object","additionalProperties":false}`,
			`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","additionalProperties":false}`},
		{"indented", "{\n  \"type\": \"object\"\n}", "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\n  \"type\": \"object\"\n}"},
		{"a named dialect stays", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`,
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}`},
		{"a nested $schema is no root dialect", `{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#"}}}`,
			`{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#"}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := WithDialect([]byte(tc.schema))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("WithDialect(%s) = %s, want %s", tc.schema, got, tc.want)
			}
			if _, err := CompileSchema(got); err != nil {
				t.Errorf("the result does not compile: %v", err)
			}
		})
	}
}

func TestWithDialectRejects(t *testing.T) {
	for _, schema := range []string{``, `null`, `[]`, `"object"`, `true`, `{"type":`, `{} {}`} {
		if got, err := WithDialect([]byte(schema)); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("WithDialect(%q) = %s, %v; want an error matching ErrInvalidSchema", schema, got, err)
		}
	}
}
