package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// TestGenCompletesGoSum checks that gen completes a go.sum that misses
// modules of the generator program, the way "goa gen" does with "go get",
// says so, and builds: here the design's module lost jennifer's checksums.
func TestGenCompletesGoSum(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the generator program")
	}
	root, err := filepath.Abs(moduleRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	goMod := userGoMod(t, root)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(sum), "\n") {
		if !strings.HasPrefix(line, "github.com/dave/jennifer ") {
			kept = append(kept, line)
		}
	}
	design := guideFiles(t)["design/design.go"] // docs/guide.md's design
	for name, content := range map[string]string{"go.mod": goMod, "go.sum": strings.Join(kept, ""), "design/design.go": design} {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	// The module cache holds every module (this module's tests build them);
	// checksums come from this module's go.sum, not from a checksum database.
	for k, v := range map[string]string{"GOSUMDB": "off", "GOWORK": "off", "GOFLAGS": "-buildvcs=false"} {
		t.Setenv(k, v)
	}
	runs := []struct {
		name       string
		wantStderr string
		wantStdout string
	}{
		{"first run completes go.sum", "added the generator program's requirements to go.mod and go.sum", "gen/agents/desk/agent.go\n"},
		{"second run needs nothing", "", ""},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := runGen([]string{"example.com/helpdesk/design"}, &stdout, &stderr); code != 0 {
				t.Fatalf("exit code %d; stderr:\n%s", code, stderr.String())
			}
			if r.wantStderr == "" && stderr.Len() > 0 || !strings.Contains(stderr.String(), r.wantStderr) {
				t.Errorf("stderr:\n%s\nwant %q", stderr.String(), r.wantStderr)
			}
			if r.wantStdout == "" && stdout.Len() > 0 || !strings.Contains(stdout.String(), r.wantStdout) {
				t.Errorf("stdout:\n%s\nwant %q", stdout.String(), r.wantStdout)
			}
		})
	}
	got, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "github.com/dave/jennifer v1.7.1 h1:") {
		t.Error("go.sum has no checksum of jennifer")
	}
}

// userGoMod returns the go.mod of a module example.com/helpdesk that
// requires this module, replaced by root, and every module this one
// requires, so that it needs nothing beyond this module's go.sum.
func userGoMod(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	repo, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := new(modfile.File)
	const this = "github.com/goa-discovery/goa-discovery"
	for _, err := range []error{
		f.AddModuleStmt("example.com/helpdesk"),
		f.AddGoStmt(repo.Go.Version),
		f.AddRequire(this, "v0.0.0"),
		f.AddReplace(this, "", root, ""),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range repo.Require {
		f.AddNewRequire(r.Mod.Path, r.Mod.Version, true)
	}
	out, err := f.Format()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
