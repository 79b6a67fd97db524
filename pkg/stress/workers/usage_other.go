//go:build !unix

package workers

// usage is not measured on this platform.
func usage() (cpu float64, maxRSS int64) { return 0, 0 }
