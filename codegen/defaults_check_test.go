package codegen_test

// defaultsCheck is the test file that checks, in the module of the golden
// files, that the defaults design's codecs give every omitted optional
// property its design default, at every depth, and keep given ones.
const defaultsCheck = `package golden_test

import (
	"reflect"
	"testing"

	"example.com/golden/defaults/toolsets/reports"
)

func TestDecodedValuesTakeDesignDefaults(t *testing.T) {
	spec, ok := reports.Spec(reports.RunReport)
	if !ok {
		t.Fatal("no spec of run_report")
	}
	day, hour := "day", "hour"
	week := func() *reports.Window { return &reports.Window{Days: new(int64(7)), Unit: &day} }
	cases := []struct {
		name string
		data string
		want reports.RunReportArgs
	}{
		{"all omitted", "{\"query\":\"q\"}", reports.RunReportArgs{
			Query: "q", Limit: new(20), Offset: new(uint32(0)), Ratio: new(float32(0.5)), Verbose: new(true),
			Formats: []string{"csv"}, Weights: map[string]float64{"cpu": 1.5},
			Fallback: &reports.Window{Days: new(int64(30)), Unit: &day},
		}},
		{"given kept, nested filled", "{\"query\":\"q\",\"limit\":5,\"offset\":2,\"ratio\":0.25,\"verbose\":false,\"formats\":[],\"weights\":{}," +
			"\"window\":{\"days\":2},\"windows\":[{\"unit\":\"hour\"},{}],\"by_region\":{\"eu\":{\"label\":\"EU\"}},\"fallback\":{\"unit\":\"hour\"}}", reports.RunReportArgs{
			Query: "q", Limit: new(5), Offset: new(uint32(2)), Ratio: new(float32(0.25)), Verbose: new(false),
			Formats: []string{}, Weights: map[string]float64{},
			Window:   &reports.Window{Days: new(int64(2)), Unit: &day},
			Windows:  []*reports.Window{{Days: new(int64(7)), Unit: &hour}, week()},
			ByRegion: map[string]*reports.Window{"eu": {Days: new(int64(7)), Unit: &day, Label: new("EU")}},
			Fallback: &reports.Window{Days: new(int64(7)), Unit: &hour},
		}},
	}
	for _, tc := range cases {
		got, err := spec.Payload.Decode([]byte(tc.data))
		if err != nil {
			t.Fatalf("%s: decode %s: %v", tc.name, tc.data, err)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: decode %s = %+v, want %+v", tc.name, tc.data, got, tc.want)
		}
	}
	result, err := spec.Result.Decode([]byte("{\"total\":3}"))
	if err != nil {
		t.Fatalf("decode result: %v", err)
	}
	if want := (&reports.RunReportResult{Total: 3, PageSize: new(20)}); !reflect.DeepEqual(result, want) {
		t.Errorf("decode result = %+v, want %+v", result, want)
	}
}
`
