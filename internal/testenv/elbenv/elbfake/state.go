package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// state is the shared directory: configmaps/<name>.json (one namespace), blobs/<account>/
// <container>/<path> (the storage accounts), runs/<elastic-blast job id>.json. Every write is a
// temporary file renamed into place, so that concurrent calls from several replicas never see a
// half-written file.
type state struct{ dir string }

func openState() (*state, error) {
	dir := os.Getenv("ELB_FAKE_STATE")
	if dir == "" {
		return nil, errors.New("ELB_FAKE_STATE is not set: it names the state directory every replica shares")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("ELB_FAKE_STATE %s is not a directory", dir)
	}
	return &state{dir: dir}, nil
}

func (s *state) path(parts ...string) string {
	return filepath.Join(append([]string{s.dir}, parts...)...)
}

func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}

func (s *state) logCall(began time.Time, prog string, args []string) {
	shown := args
	if len(shown) > 4 {
		shown = shown[:4]
	}
	line := fmt.Sprintf("%s %.3f %s %s\n", began.UTC().Format(time.RFC3339Nano), time.Since(began).Seconds(), prog, strings.Join(shown, " "))
	f, err := os.OpenFile(s.path("calls.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(line) // one write of one short line: appends from several processes do not interleave
}

// blobPath maps https://<account>.blob.core.windows.net/<container>/<path> to its file.
func (s *state) blobPath(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || !strings.HasSuffix(u.Host, ".blob.core.windows.net") {
		return "", fail("failed to parse user input due to error: %q is not an Azure Blob URL", raw)
	}
	account := strings.TrimSuffix(u.Host, ".blob.core.windows.net")
	p := strings.TrimPrefix(u.Path, "/")
	if p == "" || strings.Contains(p, "..") {
		return "", fail("failed to parse user input due to error: %q has no container", raw)
	}
	return s.path("blobs", account, filepath.FromSlash(p)), nil
}

// blastRun is one elastic-blast run: its Kubernetes Jobs stay active until End, then succeed.
type blastRun struct {
	ID      string    `json:"id"`
	Results string    `json:"results"`
	DB      string    `json:"db"`
	Program string    `json:"program"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	Deleted bool      `json:"deleted,omitempty"`
}

func (s *state) runs() ([]blastRun, error) {
	ents, err := os.ReadDir(s.path("runs"))
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	var out []blastRun
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(s.path("runs", e.Name()))
		if err != nil {
			continue // renamed away under us
		}
		var r blastRun
		if json.Unmarshal(b, &r) == nil {
			out = append(out, r)
		}
	}
	return out, nil
}

func (s *state) saveRun(r blastRun) error {
	b, _ := json.Marshal(r)
	return writeAtomic(s.path("runs", r.ID+".json"), b)
}

// materialize writes what a finished run leaves in storage: its result file, then its SUCCESS
// marker (elastic-blast's finalizer uploads the results before the marker).
func (s *state) materialize() error {
	rs, err := s.runs()
	if err != nil {
		return err
	}
	now := time.Now()
	for _, r := range rs {
		if r.Deleted || now.Before(r.End) {
			continue
		}
		base := strings.TrimRight(r.Results, "/") + "/" + r.ID
		marker, err := s.blobPath(base + "/metadata/SUCCESS.txt")
		if err != nil {
			return err
		}
		if _, err := os.Stat(marker); err == nil {
			continue
		}
		result, err := s.blobPath(fmt.Sprintf("%s/batch_000-%s-%s.out.gz", base, r.Program, r.DB))
		if err != nil {
			return err
		}
		if err := writeAtomic(result, gzipped(resultXML(r))); err != nil {
			return err
		}
		if err := writeAtomic(marker, []byte(r.End.UTC().Format(time.RFC3339)+"\n")); err != nil {
			return err
		}
	}
	return nil
}

// firstUpload reports whether this is the first upload to the storage account (of any process).
func (s *state) firstUpload() bool {
	f, err := os.OpenFile(s.path("first-upload"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
