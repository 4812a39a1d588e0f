package temporal

import (
	"errors"
	"fmt"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/goa-discovery/goa-discovery/runtime"
)

// ErrNoRunInHistory is wrapped when a workflow history holds no completed
// execution of a run's workflow.
var ErrNoRunInHistory = errors.New("temporal: the history records no completed run")

// RunStateFromHistory returns the run recorded by an exported workflow
// history (the history of a completed execution of RunWorkflow or
// ImportWorkflow, as `temporal workflow show --output json` or the client's
// GetWorkflowHistory gives it), for runtime.Runtime.ImportRun. dc decodes
// the workflow's result; nil means the SDK's default data converter.
func RunStateFromHistory(history *historypb.History, dc converter.DataConverter) (*runtime.RunState, error) {
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	events := history.GetEvents()
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if ev.GetEventType() != enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED {
			continue
		}
		var res Result
		if err := dc.FromPayloads(ev.GetWorkflowExecutionCompletedEventAttributes().GetResult(), &res); err != nil {
			return nil, fmt.Errorf("decode the run's result: %w", err)
		}
		if res.State == nil {
			return nil, fmt.Errorf("%w: the result has no run", ErrNoRunInHistory)
		}
		return res.State, nil
	}
	return nil, ErrNoRunInHistory
}
