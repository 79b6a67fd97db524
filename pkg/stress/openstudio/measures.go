package openstudio

// Contention is what the run achieved on the server (docs/architecture.md, the stress contract, 6).
type Contention struct {
	// MaxInFlightOneAnalysis is the most requests in flight at once on one analysis.
	MaxInFlightOneAnalysis int `json:"max_in_flight_one_analysis"`
	// MaxOverlappingWrites is the most writes (uploads, starts) in flight at once on one analysis.
	MaxOverlappingWrites int `json:"max_overlapping_writes"`
	// Contended is how many analyses saw two or more overlapping writes, of Analyses.
	Contended int     `json:"contended_analyses"`
	Analyses  int     `json:"analyses"`
	Fraction  float64 `json:"contended_fraction"`
}

// Extractions says which analyses' extractions could be judged.
type Extractions struct {
	// Expected is how many analyses had a start acknowledged after an acknowledged upload.
	Expected int `json:"expected"`
	// Judged is how many analyses' extractions were judged: a job of theirs left "queued".
	Judged int `json:"judged"`
	// NotJudged is how many expected extractions were not judged: every job of the analysis was
	// still queued when its status was read (not run yet, or failed).
	NotJudged int `json:"not_judged"`
	// Jobs is how many jobs status.json listed for the run's analyses; Ran how many left "queued",
	// Queued how many had not.
	Jobs   int `json:"jobs"`
	Ran    int `json:"ran"`
	Queued int `json:"queued"`
}

// ResultFiles says which acknowledged result files were judged lost if missing.
type ResultFiles struct {
	// Judged is how many acknowledged upload_files must have left their file.
	Judged int `json:"judged"`
	// NotJudged is how many were on a data point of an analysis that was started: the simulation
	// worker deletes a data point's result files by design before it simulates it, so their
	// absence proves nothing (a file that is there is still judged by its bytes).
	NotJudged int `json:"not_judged"`
}
