package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB double that records failures instead of failing
// the test, so that the helpers' failures can be checked.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) {
	r.failures = append(r.failures, fmt.Sprint(args...))
	runtime.Goexit()
}

// record runs fn with a recorder on its own goroutine, so that a fatal
// failure ends fn only, and returns the failures.
func record(t *testing.T, fn func(tb testing.TB)) []string {
	t.Helper()
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
	}()
	<-done
	return r.failures
}

// withUpdate runs fn with GOA_DISCOVERY_UPDATE=1 when on (unset
// otherwise), then leaves it unset for the rest of t.
func withUpdate(t *testing.T, on bool, fn func()) {
	t.Helper()
	v := ""
	if on {
		v = "1"
	}
	t.Setenv(UpdateEnv, v)
	fn()
	t.Setenv(UpdateEnv, "")
}

func TestUpdate(t *testing.T) {
	cases := []struct {
		value string
		want  bool
		fail  string // part of the failure, "" for none
	}{
		{"", false, ""},
		{"1", true, ""},
		{"0", false, `GOA_DISCOVERY_UPDATE="0": want 1`},
		{"true", false, `GOA_DISCOVERY_UPDATE="true": want 1`},
	}
	for _, tc := range cases {
		t.Run(tc.value, func(t *testing.T) {
			t.Setenv(UpdateEnv, tc.value)
			var got bool
			f := record(t, func(tb testing.TB) { got = Update(tb) })
			checkFailures(t, f, tc.fail)
			if got != tc.want {
				t.Errorf("Update() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nested", "out.txt")
	withUpdate(t, true, func() {
		if f := record(t, func(tb testing.TB) { File(tb, path, []byte("one\n")) }); len(f) != 0 {
			t.Fatalf("File with GOA_DISCOVERY_UPDATE=1 failed: %v", f)
		}
	})
	if got, err := os.ReadFile(path); err != nil || string(got) != "one\n" {
		t.Fatalf("File with GOA_DISCOVERY_UPDATE=1 wrote %q, %v; want %q", got, err, "one\n")
	}
	cases := []struct {
		name, path, got string
		fail            string // part of the failure, "" for none
	}{
		{"same", path, "one\n", ""},
		{"different", path, "two\n", "out.txt differs"},
		{"missing", filepath.Join(dir, "absent.txt"), "one\n", "run the test with GOA_DISCOVERY_UPDATE=1 to create it"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := record(t, func(tb testing.TB) { File(tb, tc.path, []byte(tc.got)) })
			checkFailures(t, f, tc.fail)
		})
	}
}

func TestJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "body.json")
	withUpdate(t, true, func() {
		record(t, func(tb testing.TB) { JSON(tb, path, []byte(`{"b":1,"a":[true]}`)) })
	})
	want := "{\n  \"b\": 1,\n  \"a\": [\n    true\n  ]\n}\n"
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Fatalf("JSON with GOA_DISCOVERY_UPDATE=1 wrote %q, %v; want %q", got, err, want)
	}
	cases := []struct {
		name, body, fail string
	}{
		{"same in other white space", `{"b": 1, "a": [ true ]}`, ""},
		{"keys in another order", `{"a":[true],"b":1}`, "body.json differs"},
		{"not JSON", `{"a":`, "not JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := record(t, func(tb testing.TB) { JSON(tb, path, []byte(tc.body)) })
			checkFailures(t, f, tc.fail)
		})
	}
}

func TestTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "golden")
	stale := filepath.Join(dir, "stale.go")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"a.go": []byte("a"), "sub/b.go": []byte("b")}
	withUpdate(t, true, func() {
		if f := record(t, func(tb testing.TB) { Tree(tb, dir, files) }); len(f) != 0 {
			t.Fatalf("Tree with GOA_DISCOVERY_UPDATE=1 failed: %v", f)
		}
	})
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("Tree with GOA_DISCOVERY_UPDATE=1 kept a file it was not given: %v", err)
	}
	cases := []struct {
		name string
		got  map[string][]byte
		fail string
	}{
		{"same", files, ""},
		{"content differs", map[string][]byte{"a.go": []byte("a"), "sub/b.go": []byte("c")}, filepath.Join("sub", "b.go") + " differs"},
		{"file missing", map[string][]byte{"a.go": []byte("a")}, "files differ from"},
		{"file added", map[string][]byte{"a.go": []byte("a"), "sub/b.go": []byte("b"), "c.go": nil}, "files differ from"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := record(t, func(tb testing.TB) { Tree(tb, dir, tc.got) })
			checkFailures(t, f, tc.fail)
		})
	}
	if got := ReadTree(t, filepath.Join(dir, "absent")); len(got) != 0 {
		t.Errorf("ReadTree of a missing directory = %v, want no files", got)
	}
}

// checkFailures expects no failure when want is empty, else one failure
// containing want.
func checkFailures(t *testing.T, failures []string, want string) {
	t.Helper()
	switch {
	case want == "" && len(failures) != 0:
		t.Errorf("unexpected failures: %q", failures)
	case want != "" && (len(failures) != 1 || !strings.Contains(failures[0], want)):
		t.Errorf("failures %q, want one containing %q", failures, want)
	}
}
