package nfscheck

import (
	"bufio"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
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

// ParseMountinfo parses mountinfo text (the format of /proc/self/mountinfo, proc(5)) one line
// at a time, so that an error names the line. It reads text from any system (a pod's mountinfo
// on a Mac's osctl). name is
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
	sep := len(fields) - 4
	// A space in the last field (a cifs unc= of Linux 3.9 and older) moves the separator left.
	for fields[sep] != "-" {
		if sep--; sep == 5 {
			return Mount{}, fmt.Errorf("missing - separator")
		}
	}
	m := Mount{Options: fields[5], Super: fields[sep+3]}
	m.ID, _ = strconv.Atoi(fields[0])
	m.Parent, _ = strconv.Atoi(fields[1])
	mm := strings.Split(fields[2], ":")
	m.Major, _ = strconv.Atoi(mm[0])
	m.Minor, _ = strconv.Atoi(mm[1])
	for _, f := range []struct {
		what string
		in   string
		out  *string
	}{{"root", fields[3], &m.Root}, {"mount point", fields[4], &m.MountPoint}, {"fstype", fields[sep+1], &m.FSType}, {"source", fields[sep+2], &m.Source}} {
		v, err := unescapeOctal(f.in)
		if err != nil {
			return Mount{}, fmt.Errorf("%s %q: %v", f.what, clip(f.in), err)
		}
		*f.out = v
	}
	return m, nil
}

// unescapeOctal undoes the kernel's octal escapes of a mountinfo field (\040 a space, \011 a
// tab, \012 a newline, \134 a backslash).
func unescapeOctal(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if len(s)-i < 4 {
			return "", fmt.Errorf("escape %q is too short (\\ and three octal digits)", s[i:])
		}
		v, err := strconv.ParseUint(s[i+1:i+4], 8, 8)
		if err != nil {
			return "", fmt.Errorf("escape %q is not \\ and three octal digits up to \\377", s[i:i+4])
		}
		b.WriteByte(byte(v))
		i += 3
	}
	return b.String(), nil
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
