package embeddedstore

import (
	"os"
	"path/filepath"
)

// StoredCalls returns how many call records the journal in dir holds, read
// from the file.
func StoredCalls(dir string) (int, error) {
	data, err := os.ReadFile(filepath.Join(dir, callsJournal))
	if err != nil {
		return 0, err
	}
	j := &journal{path: callsJournal, live: make(map[string][]byte)}
	if _, err := j.replay(data); err != nil {
		return 0, err
	}
	return len(j.live), nil
}
