package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// perform runs one Resque job taken by this replica's worker.
func (s *openStudioService) perform(ctx context.Context, class string, args []any) error {
	switch class {
	case classInitialize:
		return s.initializeAnalysis(ctx, args)
	case classDeleteAnalysis:
		if len(args) < 1 {
			return fmt.Errorf("ArgumentError: DeleteAnalysis takes the analysis directory")
		}
		return s.deleteAnalysisDir(ctx, str(args[0]))
	}
	return fmt.Errorf("NameError: uninitialized constant %s", class)
}

// initializeAnalysis is ResqueJobs::InitializeAnalysis: Analysis#run_initialization extracts
// the seed zip (initAttempts attempts, then it raises and the job stays queued for good; the
// initialize script the extraction may hold is not run). Its after_perform hook enqueues
// RunAnalysis, which the sandbox stands in for at once: the job is marked started and the
// analysis's run_flag set (AnalysisLibrary::Core.initialize_analysis_job), and its data points
// still "na" are "simulated" (simulateDataPoints: their result files deleted, as the real
// simulation worker does first); the sandbox runs no simulations, so the job stays started.
func (s *openStudioService) initializeAnalysis(ctx context.Context, args []any) error {
	if len(args) < 3 {
		return fmt.Errorf("ArgumentError: InitializeAnalysis takes analysis_type, analysis_id and job_id")
	}
	id, jobID := str(args[1]), str(args[2])
	if rec, err := s.find("analyses", id); err != nil || rec == nil {
		if err == nil {
			err = nilRecord("analysis", id, "run_initialization")
		}
		return err
	}
	zipName := func() (string, error) {
		rec, err := s.find("analyses", id)
		if err != nil {
			return "", err
		}
		if rec == nil {
			return "", nilRecord("analysis", id, "seed_zip")
		}
		return seedZipStored(rec), nil
	}
	if err := s.st.initialize(ctx, id, zipName); err != nil {
		return err
	}
	// RunAnalysis: Job.find(job_id) and mark it started.
	file, err := s.jobByID(id, jobID)
	if err != nil {
		return err
	}
	if file == "" {
		s.cfg.Logf("analysis %s: RunAnalysis finds no job %s (the analysis was deleted or restarted)", id, jobID)
		return nil
	}
	if err := s.setJob(id, file, record{"status": AnalysisJobStarted, "start_time": mongoTime(s.now())}); err != nil {
		return err
	}
	if _, err := s.db.update("analyses", func(a record) error { a["run_flag"] = true; return nil }, id); err != nil && !errors.Is(err, errNoRecord) {
		return err
	}
	return s.simulateDataPoints(id)
}

// deleteAnalysisDir is ResqueJobs::DeleteAnalysis: `FileUtils.rm_rf dir if Dir.exist? dir`.
// The sandbox deletes only the two directories it queues: an analysis's extraction (through
// its storage, so redlock takes the analysis's lock) and its simulation directory.
func (s *openStudioService) deleteAnalysisDir(ctx context.Context, dir string) error {
	rel, err := filepath.Rel(s.cfg.StateDir, dir)
	if err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("refusing to delete %s: not inside the state directory", dir)
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	switch {
	case len(parts) == 3 && parts[0] == "server" && parts[1] == "analyses" && checkID("analysis", parts[2]) == nil:
		return s.st.removeExtraction(ctx, parts[2])
	case len(parts) == 1 && strings.HasPrefix(parts[0], "analysis_") && checkID("analysis", parts[0]) == nil:
		return os.RemoveAll(dir)
	}
	return fmt.Errorf("refusing to delete %s: not an analysis directory", dir)
}
