package codegen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/goa-discovery/goa-discovery/codegen"
	"github.com/goa-discovery/goa-discovery/codegen/internal/defaultsdesign"
	"github.com/goa-discovery/goa-discovery/internal/designtest"
	"github.com/goa-discovery/goa-discovery/testdata/designs/agentexport"
	"github.com/goa-discovery/goa-discovery/testdata/designs/deferredall"
	"github.com/goa-discovery/goa-discovery/testdata/designs/deferrednamed"
	"github.com/goa-discovery/goa-discovery/testdata/designs/localtoolset"
	"github.com/goa-discovery/goa-discovery/testdata/designs/registrysources"
	"github.com/goa-discovery/goa-discovery/testdata/designs/samenames"
	"github.com/goa-discovery/goa-discovery/testdata/designs/validations"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/golden")

// goldenRoot holds one directory of expected files per golden design.
const goldenRoot = "../testdata/golden"

// goldenModule is the module path the golden files are generated for; the
// files of design d live in package directories under goldenModule/d.
const goldenModule = "example.com/golden"

// goldenDesigns are the golden designs, one concept each.
var goldenDesigns = []struct {
	name   string
	design func()
}{
	{"agentexport", agentexport.Design},
	{"defaults", defaultsdesign.Design},
	{"deferredall", deferredall.Design},
	{"deferrednamed", deferrednamed.Design},
	{"localtoolset", localtoolset.Design},
	{"registrysources", registrysources.Design},
	{"samenames", samenames.Design},
	{"validations", validations.Design},
}

func TestGolden(t *testing.T) {
	for _, gd := range goldenDesigns {
		t.Run(gd.name, func(t *testing.T) {
			got := generate(t, gd.design, goldenModule+"/"+gd.name)
			dir := filepath.Join(goldenRoot, gd.name)
			if *update {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
				for name, content := range got {
					path := filepath.Join(dir, filepath.FromSlash(name))
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, content, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			want := readTree(t, dir)
			if diff := cmp.Diff(fileNames(want), fileNames(got)); diff != "" {
				t.Fatalf("generated files differ from %s (-want +got):\n%s\nrun go test ./codegen -update to refresh", dir, diff)
			}
			for name := range want {
				if diff := cmp.Diff(string(want[name]), string(got[name])); diff != "" {
					t.Errorf("%s differs (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	for _, gd := range goldenDesigns {
		t.Run(gd.name, func(t *testing.T) {
			first := generate(t, gd.design, goldenModule)
			second := generate(t, gd.design, goldenModule)
			if diff := cmp.Diff(first, second); diff != "" {
				t.Fatalf("two runs differ:\n%s", diff)
			}
		})
	}
}

// generate runs design in a clean eval context, generates it into a
// temporary directory and returns the files by slash-separated path.
func generate(t *testing.T, design func(), importPath string) map[string][]byte {
	t.Helper()
	if _, err := designtest.Run(t, design); err != nil {
		t.Fatalf("design: %v", err)
	}
	dir := t.TempDir()
	written, err := codegen.Generate(dir, importPath)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	got := readTree(t, dir)
	if len(written) != len(got) {
		t.Errorf("Generate reported %d files, wrote %d", len(written), len(got))
	}
	for name, content := range got {
		if !bytes.HasPrefix(content, []byte(codegen.Header+"\n")) {
			t.Errorf("%s does not start with the generated header", name)
		}
	}
	return got
}

// readTree returns the files under dir by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(path)
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return files
}

// fileNames returns the sorted names of files.
func fileNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
