package codegen

// This file emits precomputed search counts: per tool in a toolset package,
// merged per catalog in an agent package, so that no index is built by
// tokenizing at start-up. The counts are toolsearch's own types, written
// out as composite literals of whatever shape toolsearch gives them.

import (
	"fmt"
	"reflect"

	"github.com/dave/jennifer/jen"
)

// toolsetSearchFile emits SearchCounts.
func toolsetSearchFile(ts *toolsetIR, p string) (*genFile, error) {
	g := newFile(p, ts.pkg)
	counts := make([]jen.Code, len(ts.tools))
	for i, t := range ts.tools {
		lit, err := valueLit(reflect.ValueOf(t.counts), true)
		if err != nil {
			return nil, fmt.Errorf("search counts of %s: %w", t.ident, err)
		}
		counts[i] = lit
	}
	g.file.Add(doc("SearchCounts returns the search word counts of the toolset's tools in declaration order, as toolsearch.Count computes them from ToolSchemas, each named by its Ident with its model-facing name as alias. Each call returns fresh values."))
	g.file.Func().Id("SearchCounts").Params().Index().Qual(toolsearchPkg, "Counts").Block(
		jen.Return(jen.Index().Qual(toolsearchPkg, "Counts").Custom(multiLine, counts...)),
	)
	return g, nil
}

// valueLit emits a Go value of plain data (structs with exported fields,
// slices, strings, booleans and numbers) as a composite literal: a struct on
// one line with its non-zero fields in declaration order, a slice with one
// element per line. elided drops the type of a struct that is an element of
// a slice literal, which states it. Keeping literals flat keeps formatting
// the generated file linear in its size.
func valueLit(v reflect.Value, elided bool) (jen.Code, error) {
	switch v.Kind() {
	case reflect.String:
		return jen.Lit(v.String()), nil
	case reflect.Bool:
		return jen.Lit(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return jen.Lit(int(v.Int())), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return jen.Lit(int(v.Uint())), nil
	case reflect.Float32, reflect.Float64:
		return jen.Lit(v.Float()), nil
	case reflect.Slice:
		items := make([]jen.Code, v.Len())
		for i := range items {
			item, err := valueLit(v.Index(i), true)
			if err != nil {
				return nil, err
			}
			items[i] = item
		}
		return jen.Index().Add(typeRef(v.Type().Elem())).Custom(multiLine, items...), nil
	case reflect.Struct:
		var fields []jen.Code
		for i := 0; i < v.NumField(); i++ {
			sf := v.Type().Field(i)
			if !sf.IsExported() {
				return nil, fmt.Errorf("%s has unexported field %s", v.Type(), sf.Name)
			}
			if v.Field(i).IsZero() {
				continue
			}
			lit, err := valueLit(v.Field(i), false)
			if err != nil {
				return nil, err
			}
			fields = append(fields, jen.Id(sf.Name).Op(":").Add(lit))
		}
		if elided {
			return jen.Values(fields...), nil
		}
		return jen.Add(typeRef(v.Type())).Values(fields...), nil
	}
	return nil, fmt.Errorf("cannot emit a %s literal", v.Type())
}

// multiLine renders a composite literal with one element per line.
var multiLine = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// typeRef emits a reference to a named type, or a basic type.
func typeRef(t reflect.Type) jen.Code {
	if t.PkgPath() != "" {
		return jen.Qual(t.PkgPath(), t.Name())
	}
	return jen.Id(t.String())
}
