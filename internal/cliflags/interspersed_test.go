package cliflags

import (
	"flag"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseInterspersed(t *testing.T) {
	cases := []struct {
		name    string
		args    []string
		wantOut string
		wantPos []string
		wantErr bool
	}{
		{"flags first", []string{"-o", "dir", "path"}, "dir", []string{"path"}, false},
		{"flags after", []string{"path", "-o", "dir"}, "dir", []string{"path"}, false},
		{"between", []string{"a", "-o", "dir", "b"}, "dir", []string{"a", "b"}, false},
		{"none", nil, "", nil, false},
		{"unknown flag", []string{"path", "-x"}, "", nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := flag.NewFlagSet("gen", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			out := fs.String("o", "", "")
			pos, err := ParseInterspersed(fs, c.args)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if err != nil {
				return
			}
			if *out != c.wantOut {
				t.Errorf("-o = %q, want %q", *out, c.wantOut)
			}
			if diff := cmp.Diff(c.wantPos, pos); diff != "" {
				t.Errorf("positional (-want +got):\n%s", diff)
			}
		})
	}
}
