//go:build !race

package toolsearch

// raceDetector reports that the tests run with the race detector.
const raceDetector = false
