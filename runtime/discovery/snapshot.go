package discovery

import (
	"errors"
	"fmt"

	"github.com/goa-discovery/goa-discovery/runtime/model"
)

// CheckSnapshot reports why s cannot be a discovered tool's snapshot, as a
// *model.ValidationError with no message index: a name that is not portable
// (RuleSnapshotName) or reserved (RuleReservedName), parameters that are
// not plain JSON Schema with an object root (RuleParameters), or strict
// parameters outside the strict-capable contract (RuleStrictSchema).
func CheckSnapshot(s model.ToolSnapshot) error {
	if err := checkSnapshot(&s, -1, -1, "", nil); err != nil {
		return err
	}
	return nil
}

// checkSnapshot checks one snapshot of message msg, part part; where
// locates it in the detail ("tool 2 of the result for \"d1\": ").
func checkSnapshot(s *model.ToolSnapshot, msg, part int, where string, memo *schemaMemo) *model.ValidationError {
	if err := checkSnapshotName(s, msg, part, where); err != nil {
		return err
	}
	if err := memo.check(s.Parameters, isStrict(s)); err != nil {
		return schemaFailure(err, msg, part, where+"snapshot "+quote(s.Name))
	}
	return nil
}

// checkResultTool checks tool k of discovery result r, in message msg, part
// part. Only a failure says where the snapshot is, so the success path
// formats nothing.
func checkResultTool(r *model.DiscoveryResult, k, msg, part int, memo *schemaMemo) *model.ValidationError {
	s := &r.Tools[k]
	if checkSnapshot(s, msg, part, "", memo) == nil {
		return nil
	}
	return checkSnapshot(s, msg, part, fmt.Sprintf("tool %d of the result for %q: ", k, r.CallID), memo)
}

// checkEntry is checkSnapshot without compiling the parameters, what
// NewCatalog checks of its entry i up front; it appends the compact
// parameters to dst, reading them with r.
func checkEntry(r *shapeReader, dst []byte, s *model.ToolSnapshot, i int) ([]byte, *model.ValidationError) {
	where := func() string { return fmt.Sprintf("catalog entry %d: ", i) }
	if err := checkSnapshotName(s, -1, -1, ""); err != nil {
		return dst, checkSnapshotName(s, -1, -1, where())
	}
	out, err := r.compact(dst, s.Parameters)
	if err == nil && isStrict(s) {
		err = CheckStrictSchema(out[len(dst):])
	}
	if err != nil {
		return dst, schemaFailure(err, -1, -1, where()+"snapshot "+quote(s.Name))
	}
	return out, nil
}

func checkSnapshotName(s *model.ToolSnapshot, msg, part int, where string) *model.ValidationError {
	if err := ValidateName(s.Name); err != nil {
		return failure(msg, part, RuleSnapshotName, "%s%v", where, err)
	}
	if IsReserved(s.Name) {
		return failure(msg, part, RuleReservedName, "%ssnapshot %q uses a reserved name", where, s.Name)
	}
	return nil
}

// schemaFailure turns a schema check's error into a validation error of
// the matching rule, or nil.
func schemaFailure(err error, msg, part int, what string) *model.ValidationError {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotStrictCapable):
		return failure(msg, part, RuleStrictSchema, "strict %s: %v", what, err)
	}
	return failure(msg, part, RuleParameters, "%s: %v", what, err)
}

func isStrict(s *model.ToolSnapshot) bool { return s.Strict != nil && *s.Strict }

func quote(s string) string { return `"` + s + `"` }
