package discovery

import (
	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// CheckSnapshot reports why s cannot be a discovered tool's snapshot, as a
// *model.ValidationError with no message index: a name that is not portable
// (RuleSnapshotName) or reserved (RuleReservedName), parameters that are
// not plain JSON Schema with an object root (RuleParameters), or strict
// parameters outside the strict-capable contract (RuleStrictSchema).
func CheckSnapshot(s model.ToolSnapshot) error {
	if err := checkSnapshot(&s, -1, -1, ""); err != nil {
		return err
	}
	return nil
}

// checkSnapshot checks one snapshot of message msg, part part; where
// locates it in the detail ("tool 2 of the result for \"d1\": ").
func checkSnapshot(s *model.ToolSnapshot, msg, part int, where string) *model.ValidationError {
	if err := ValidateName(s.Name); err != nil {
		return failure(msg, part, RuleSnapshotName, "%s%v", where, err)
	}
	if IsReserved(s.Name) {
		return failure(msg, part, RuleReservedName, "%ssnapshot %q uses a reserved name", where, s.Name)
	}
	if err := CheckParameters(s.Parameters); err != nil {
		return failure(msg, part, RuleParameters, "%ssnapshot %q: %v", where, s.Name, err)
	}
	if s.Strict != nil && *s.Strict {
		if err := CheckStrictSchema(s.Parameters); err != nil {
			return failure(msg, part, RuleStrictSchema, "%sstrict snapshot %q: %v", where, s.Name, err)
		}
	}
	return nil
}
