package nfscheck

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/moby/sys/mountinfo"
)

// Mount is one line of mountinfo.
type Mount struct {
	ID         int    `json:"id"`
	Parent     int    `json:"parent"`
	Major      int    `json:"major"`
	Minor      int    `json:"minor"`
	Root       string `json:"root"`
	MountPoint string `json:"mountPoint"`
	Options    string `json:"options"` // per-mount options (field 6)
	FSType     string `json:"fsType"`
	Source     string `json:"source"`
	Super      string `json:"superOptions"` // per-superblock options: where NFS options live
	Line       int    `json:"line"`
}

// IsNFS reports whether the mount is an NFS client mount.
func (m Mount) IsNFS() bool { return m.FSType == "nfs" || m.FSType == "nfs4" }

// ParseError names the input and the line that is not valid mountinfo.
type ParseError struct {
	Name string
	Line int
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: not mountinfo: %s", e.Name, e.Msg)
	}
	return fmt.Sprintf("%s:%d: not a mountinfo line: %s", e.Name, e.Line, e.Msg)
}

// maxLine bounds one mountinfo line (the kernel's own lines stay far below it).
const maxLine = 64 * 1024

// ParseMountinfo parses mountinfo text (the format of /proc/self/mountinfo) with
// github.com/moby/sys/mountinfo, one line at a time so that an error names the line. name is
// used in errors (a file name, or "pod/NAME"). Blank lines are skipped.
func ParseMountinfo(r io.Reader, name string) ([]Mount, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	var out []Mount
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		m, err := parseLine(line)
		if err != nil {
			return nil, &ParseError{Name: name, Line: n, Msg: err.Error()}
		}
		m.Line = n
		out = append(out, m)
	}
	if err := sc.Err(); err != nil {
		return nil, &ParseError{Name: name, Line: n + 1, Msg: err.Error()}
	}
	if len(out) == 0 {
		return nil, &ParseError{Name: name, Msg: "no mount lines (every mountinfo holds at least the root mount)"}
	}
	return out, nil
}

func parseLine(line string) (Mount, error) {
	fields := strings.Split(line, " ")
	if len(fields) < 10 {
		return Mount{}, fmt.Errorf("%d fields, want at least 10 (id parent major:minor root mountpoint options [optional...] - fstype source superoptions)", len(fields))
	}
	for i, what := range []string{"mount id", "parent id"} {
		if _, err := strconv.Atoi(fields[i]); err != nil {
			return Mount{}, fmt.Errorf("%s %q is not a number", what, clip(fields[i]))
		}
	}
	if mm := strings.Split(fields[2], ":"); len(mm) != 2 || !isNum(mm[0]) || !isNum(mm[1]) {
		return Mount{}, fmt.Errorf("device %q is not major:minor", clip(fields[2]))
	}
	if !strings.HasPrefix(fields[4], "/") {
		return Mount{}, fmt.Errorf("mount point %q is not an absolute path", clip(fields[4]))
	}
	infos, err := mountinfo.GetMountsFromReader(strings.NewReader(line), nil)
	if err != nil {
		msg := err.Error()
		if i := strings.LastIndex(msg, "failed: "); i >= 0 {
			msg = msg[i+len("failed: "):]
		}
		return Mount{}, fmt.Errorf("%s", clip(msg))
	}
	if len(infos) != 1 {
		return Mount{}, fmt.Errorf("not exactly one mount")
	}
	i := infos[0]
	return Mount{ID: i.ID, Parent: i.Parent, Major: i.Major, Minor: i.Minor, Root: i.Root,
		MountPoint: i.Mountpoint, Options: i.Options, FSType: i.FSType, Source: i.Source, Super: i.VFSOptions}, nil
}

func isNum(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != "" && s[0] != '-' && s[0] != '+'
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// FindMount returns the mount that holds p: the one with the longest mount point that is p or
// a parent of p; among equal mount points the last (the one mounted on top). ok is false when
// no mount holds p (mountinfo without "/").
func FindMount(ms []Mount, p string) (m Mount, ok bool) {
	p = path.Clean("/" + p)
	best := -1
	for i, c := range ms {
		mp := path.Clean(c.MountPoint)
		if !under(p, mp) {
			continue
		}
		if best < 0 || len(mp) >= len(path.Clean(ms[best].MountPoint)) {
			best = i
		}
	}
	if best < 0 {
		return Mount{}, false
	}
	return ms[best], true
}

func under(p, mp string) bool {
	if mp == "/" || p == mp {
		return true
	}
	return strings.HasPrefix(p, mp+"/")
}
