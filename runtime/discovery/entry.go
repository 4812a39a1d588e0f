package discovery

import (
	"fmt"
	"slices"

	"github.com/goa-discovery/goa-discovery/runtime/model"
	"github.com/goa-discovery/goa-discovery/runtime/toolregistry/contract"
	"github.com/goa-discovery/goa-discovery/runtime/tools"
)

// EntryFromSchema turns a tool's wire record into a catalog entry. The
// model knows the tool by the portable form of its identifier
// ("records.lookup" becomes "records_lookup") in the namespace of its
// toolset; its catalog name is the identifier. The parameters are the
// model-facing payload schema of contract.ModelSchema, the one place that
// removes the contract's server-only fields, which the model never sees
// nor fills. The entry's Partner is the contract's pagination partner.
// The record must pass ToolSchema.Validate.
func EntryFromSchema(ts *tools.ToolSchema) (Entry, error) {
	if err := ts.Validate(); err != nil {
		return Entry{}, fmt.Errorf("discovery: entry: %w", err)
	}
	params, err := contract.ModelSchema(ts)
	if err != nil {
		return Entry{}, fmt.Errorf("discovery: entry %q: %w", ts.Name, err)
	}
	var (
		terms   []string
		partner string
	)
	if ts.Contract != nil {
		terms = slices.Clone(ts.Contract.SearchTerms)
		partner = string(ts.Contract.PaginationPartner)
	}
	return Entry{
		Snapshot: model.ToolSnapshot{
			Name:        PortableName(string(ts.Name)),
			Description: ts.Description,
			Parameters:  params,
			Namespace:   ts.Name.Toolset(),
		},
		Name:        string(ts.Name),
		Title:       ts.Title,
		SearchTerms: terms,
		Partner:     partner,
	}, nil
}
