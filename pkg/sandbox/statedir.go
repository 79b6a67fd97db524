package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
)

// StateDir is a sandbox's state directory as a reader of what a run left in it sees it (what
// pkg/stress/leftover reads through its Sandbox interface).
type StateDir string

// Dir is the directory.
func (d StateDir) Dir() string { return string(d) }

// TempPrefix is TempPrefix: the start of the names of the files its writers put aside.
func (d StateDir) TempPrefix() string { return TempPrefix }

// Processes returns the addresses of the redis-servers the sandbox running over d started and
// its replicas by pid, each named as "replica 1 (pid 42)". Without a running sandbox (no
// ProcessesFile) the error wraps fs.ErrNotExist.
func (d StateDir) Processes() (redis []string, replicas map[int]string, err error) {
	p, err := ReadProcesses(string(d))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s has no %s (not a running sandbox's state directory): %w", d, ProcessesFile, fs.ErrNotExist)
	}
	if err != nil {
		return nil, nil, err
	}
	replicas = map[int]string{}
	for _, r := range p.Replicas {
		replicas[r.Pid] = r.String()
	}
	for _, r := range p.Redis {
		redis = append(redis, r.Addr)
	}
	return redis, replicas, nil
}
