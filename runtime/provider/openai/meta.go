package openai

import (
	"encoding/json"
	"fmt"
)

// MetaKey is the key of this adapter's records in model.Message.Meta: a JSON
// array of the Responses output items of an assistant message, verbatim.
const MetaKey = "openai"

// encodeItems returns the Meta value of an assistant message's output items.
func encodeItems(items []json.RawMessage) (json.RawMessage, error) {
	b, err := json.Marshal(items)
	if err != nil {
		return nil, fmt.Errorf("openai: encode output items: %w", err)
	}
	return b, nil
}

// decodeItems reads the output items kept under MetaKey: a JSON array of
// objects.
func decodeItems(raw json.RawMessage) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s meta is not an array of output items: %w", MetaKey, err)
	}
	for i, it := range items {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(it, &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("%s meta item %d is not a JSON object", MetaKey, i)
		}
		if _, ok := obj["type"]; !ok {
			return nil, fmt.Errorf("%s meta item %d has no type", MetaKey, i)
		}
	}
	return items, nil
}
