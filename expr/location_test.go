package expr_test

import (
	"errors"
	"runtime"
	"strconv"
	"testing"

	"goa.design/goa/v3/eval"

	"github.com/goa-discovery/goa-discovery/expr"
)

func TestDesignLocation(t *testing.T) {
	_, file, line, _ := runtime.Caller(0)
	got := expr.DesignLocation()
	want := expr.Location{File: file, Line: line + 1}
	if got != want {
		t.Fatalf("DesignLocation() = %+v, want %+v", got, want)
	}
	if s := got.String(); s != "location_test.go:"+strconv.Itoa(line+1) {
		t.Fatalf("String() = %q, want the file relative to the working directory", s)
	}
}

func TestSiteFormatsLikeGoa(t *testing.T) {
	cases := []struct {
		name string
		site expr.Site
		want string
	}{
		{"located", expr.Site{Expr: eval.Top, At: expr.Location{File: "/nowhere/design.go", Line: 12}}, "] top-level: bad"},
		{"unknown location", expr.Site{Expr: eval.Top}, "top-level: bad"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			verr := &eval.ValidationErrors{}
			verr.AddError(tc.site, errors.New("bad"))
			got := verr.Error()
			if tc.site.At.IsZero() {
				if got != tc.want {
					t.Fatalf("got %q, want %q", got, tc.want)
				}
				return
			}
			prefix := "[" + tc.site.At.String() + tc.want
			if got != prefix {
				t.Fatalf("got %q, want %q", got, prefix)
			}
		})
	}
}
