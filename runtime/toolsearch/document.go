package toolsearch

import (
	"encoding/json"
	"errors"
)

// Document is a tool as search sees it: its names and the texts its words
// come from. It is the run-time input of [Count] and [NewIndexFromDocuments].
type Document struct {
	// Name is the tool's catalog name, unique in an index. Required. Its
	// words count in [FieldName], those before its last dot in
	// [FieldNamespace].
	Name string
	// Alias is the name the model calls the tool by, when it differs from
	// Name; empty otherwise. Its words count as Name's do.
	Alias string
	// Title is the tool's human-readable title.
	Title string
	// Description is the tool's description.
	Description string
	// Parameters is the JSON Schema of the tool's arguments (an object or a
	// boolean schema; empty or null for none), one JSON value without
	// duplicate object keys. Property names, nested ones too, count as
	// parameter names; their titles, descriptions and enumerated string
	// values as parameter descriptions.
	Parameters json.RawMessage
	// SearchTerms are extra words to find the tool by.
	SearchTerms []string
}

// ErrInvalidDocument is wrapped by every error that rejects a [Document] or
// its [Counts].
var ErrInvalidDocument = errors.New("invalid tool document")
