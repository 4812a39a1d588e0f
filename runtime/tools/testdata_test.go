package tools

import "encoding/json"

// lookupPayload is the payload schema shared by the package's tests.
const lookupPayload = `{
  "type": "object",
  "properties": {
    "id": {"type": "string", "minLength": 1},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
    "tenant_id": {"type": "string"}
  },
  "required": ["id"],
  "additionalProperties": false
}`

func lookupSchema() ToolSchema {
	return ToolSchema{
		Name:        "records.lookup",
		Title:       "Lookup",
		Description: "Look up a record by id",
		Tags:        []string{"read"},
		Payload:     json.RawMessage(lookupPayload),
		Result:      json.RawMessage(`{"type":"object"}`),
		Contract: &Contract{
			SearchTerms:       []string{"find", "fetch"},
			Fields:            []FieldMeta{{Path: "/id", Label: "Record id"}},
			RequiredLabels:    map[string]string{"tenant": "acme"},
			Confirmation:      &Confirmation{Title: "Look up", Template: `Look up {{ .id }} ({{ json (index . "limit") }})`},
			PaginationPartner: "records.next",
			ServerOnlyFields:  []string{"tenant_id"},
		},
	}
}

func searchSchema() ToolSchema {
	return ToolSchema{
		Name:        "records.search",
		Description: "Search records by keywords",
		Payload:     json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`),
	}
}
