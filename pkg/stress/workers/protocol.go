// Package workers runs osctl stress from load workers in the cluster (osctl stress --workers K):
// one Indexed Job of K pods, each driven through exec by a coordinator that may not reach the
// targets itself, and one merged history, report and verdict (docs/stress-workers.md).
//
// The coordinator and each worker speak framed messages, one JSON object per line: the
// coordinator's on the worker's stdin, the worker's on its stdout. Exec through kwok, and through
// some API servers, never passes on stdin's end, so a worker never reads stdin to its end: it
// stops on "bye", on "stop" during the load, or when it has heard nothing (not even "ping") for
// its idle bound.
package workers

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"time"

	pstress "github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/attack"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// Frame types. The coordinator sends hello, clock, probe, check, setup, load, go, stop,
// job_counts, readback, ping and bye; a worker answers ready, probe, ok, setup, armed, loaded,
// job_counts, done or error, and streams rec, sent, progress and phase.
const (
	tHello     = "hello"
	tClock     = "clock"
	tProbe     = "probe"
	tCheck     = "check"
	tSetup     = "setup"
	tLoad      = "load"
	tGo        = "go"
	tStop      = "stop"
	tJobCounts = "job_counts"
	tReadback  = "readback"
	tPing      = "ping"
	tBye       = "bye"

	tReady    = "ready"
	tOK       = "ok"
	tArmed    = "armed"
	tLoaded   = "loaded"
	tDone     = "done"
	tError    = "error"
	tRec      = "rec"
	tSent     = "sent"
	tProgress = "progress"
	tPhase    = "phase"
)

// Error codes of an error frame.
const (
	codeVersion = "version" // the configuration is from another osctl version
	codeAuth    = "auth"    // the job API refused the token
)

// frame is one message. T says which fields are set.
type frame struct {
	T string `json:"t"`

	Hello   *hello                `json:"hello,omitempty"`
	ShiftNS int64                 `json:"shift_ns,omitempty"` // clock: add to the worker's clock
	Setup   *pstress.Setup        `json:"setup,omitempty"`
	Plan    *profile.ReadbackPlan `json:"plan,omitempty"`
	Ready   *ready                `json:"ready,omitempty"`
	Probe   *pstress.Probe        `json:"probe,omitempty"`
	Loaded  *loaded               `json:"loaded,omitempty"`
	Rec     *history.Record       `json:"rec,omitempty"`
	N       int64                 `json:"n,omitempty"` // progress: load requests that ended since the last
	Phase   string                `json:"phase,omitempty"`
	Line    string                `json:"line,omitempty"`
	Jobs    int                   `json:"jobs,omitempty"`
	Queued  int                   `json:"queued,omitempty"`

	Error string             `json:"error,omitempty"`
	Code  string             `json:"code,omitempty"`
	Auth  *profile.AuthError `json:"auth,omitempty"`
}

// hello is the run's configuration and the worker's shard, with the coordinator's version and
// clock.
type hello struct {
	Version string        `json:"version"`
	Config  wireConfig    `json:"config"`
	Shard   profile.Shard `json:"shard"`
	Now     time.Time     `json:"now"`
	// Records asks for every record (the verdict or a history needs them); without it the
	// worker sends only its counters, timeline and histogram.
	Records bool `json:"records,omitempty"`
}

// wireConfig is a Config as it travels: the targets as URL strings (a *url.URL does not keep its
// password through JSON), and the profile's Options as their JSON, which the profile decodes
// (stress.DecodeOptions).
type wireConfig struct {
	pstress.Config
	Targets []string        `json:"Targets"`
	Options json.RawMessage `json:"Options,omitempty"`
}

func toWire(c pstress.Config) (wireConfig, error) {
	w := wireConfig{Config: c}
	w.Config.Targets, w.Config.Options = nil, nil
	for _, u := range c.Targets {
		w.Targets = append(w.Targets, u.String())
	}
	if c.Options != nil {
		b, err := json.Marshal(c.Options)
		if err != nil {
			return w, fmt.Errorf("the %s profile's options: %v", c.Profile, err)
		}
		w.Options = b
	}
	return w, nil
}

func (w wireConfig) config() (pstress.Config, error) {
	c := w.Config
	o, err := pstress.DecodeOptions(c.Profile, w.Options)
	if err != nil {
		return c, err
	}
	c.Targets, c.Options = nil, o
	for _, s := range w.Targets {
		u, err := url.Parse(s)
		if err != nil {
			return c, fmt.Errorf("target %q: %v", s, err)
		}
		c.Targets = append(c.Targets, u)
	}
	return c, nil
}

// ready is a worker's answer to hello.
type ready struct {
	Version string    `json:"version"`
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Now     time.Time `json:"now"`
}

// loaded is how a worker's load went.
type loaded struct {
	Stats   attack.Snapshot `json:"stats"`
	Payload json.RawMessage `json:"payload,omitempty"` // the profile's (stress.Load.Payload)
	Notices []string        `json:"notices,omitempty"`
	CPU     float64         `json:"cpu_s"`
	MaxRSS  int64           `json:"max_rss_bytes"`
}

// maxFrame is the longest frame read: a record (a zip's manifest can be long) and a little more.
const maxFrame = history.MaxLine + 1<<20

// notAFrame is a line of the stream that does not decode as a frame.
type notAFrame struct {
	line string
	err  error
}

func (e *notAFrame) Error() string { return fmt.Sprintf("not a frame (%q): %v", e.line, e.err) }

// readFrames decodes the frames of r, one JSON line each (empty lines skipped), and hands each to
// handle until handle returns false or r ends. It returns a *notAFrame for a line that is not a
// frame, r's error, or nil when handle stopped; io.EOF when r ended. It never waits for r's end
// to act on a frame (exec does not always pass the end of stdin on).
func readFrames(r io.Reader, handle func(*frame) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxFrame)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		f := &frame{}
		if err := json.Unmarshal(sc.Bytes(), f); err != nil {
			return &notAFrame{line: string(sc.Bytes()), err: err}
		}
		if !handle(f) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return io.EOF
}

func encodeFrame(f *frame) ([]byte, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
