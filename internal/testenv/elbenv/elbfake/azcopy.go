package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// azcopy is `azcopy cp SRC DST [--recursive --include-pattern 'a;b']` (a local file to a blob, a
// blob to a local file, or the blobs under a prefix/* to a directory), `azcopy ls URL
// [--machine-readable]` (one "INFO: <path relative to URL>;  Content Length: <bytes>" line per
// blob under it) and `azcopy login`.
func azcopy(st *state, args []string) error {
	if len(args) == 0 {
		return fail("azcopy: no command")
	}
	if err := st.materialize(); err != nil {
		return err
	}
	pos, flags := splitFlags(args[1:])
	switch args[0] {
	case "login":
		fmt.Println("INFO: Login succeeded.")
		return nil
	case "ls":
		if len(pos) != 1 {
			return fail("azcopy ls takes one URL")
		}
		return azcopyList(st, pos[0])
	case "cp", "copy":
		if len(pos) != 2 {
			return fail("azcopy cp takes a source and a destination")
		}
		if _, ok := flags["--recursive"]; ok {
			return azcopyRecursive(st, pos[0], pos[1], flags["--include-pattern"])
		}
		return azcopyCopy(st, pos[0], pos[1])
	}
	return fail("azcopy %s: not faked (only cp, ls and login)", args[0])
}

// splitFlags separates positional arguments from --flags (a flag takes the next argument as its
// value unless it is --recursive or --machine-readable, or holds its value after '=').
func splitFlags(args []string) ([]string, map[string]string) {
	var pos []string
	flags := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case !strings.HasPrefix(a, "--"):
			pos = append(pos, a)
		case strings.Contains(a, "="):
			k, v, _ := strings.Cut(a, "=")
			flags[k] = v
		case a == "--recursive" || a == "--machine-readable":
			flags[a] = ""
		case i+1 < len(args):
			flags[a] = args[i+1]
			i++
		default:
			flags[a] = ""
		}
	}
	return pos, flags
}

func isBlobURL(s string) bool { return strings.HasPrefix(s, "https://") }

func azcopyCopy(st *state, src, dst string) error {
	var from, to string
	var err error
	switch {
	case isBlobURL(src) && !isBlobURL(dst):
		if from, err = st.blobPath(src); err != nil {
			return err
		}
		to = dst
	case !isBlobURL(src) && isBlobURL(dst):
		from = src
		if to, err = st.blobPath(dst); err != nil {
			return err
		}
		if d := envDuration("ELB_FAKE_FIRST_UPLOAD_STALL", 0); d > 0 && st.firstUpload() {
			time.Sleep(d)
		}
	default:
		return fail("azcopy cp: copies between a local path and a blob URL only")
	}
	b, err := os.ReadFile(from)
	if os.IsNotExist(err) {
		return fail("failed to perform copy command due to error: cannot start job due to error: cannot list files due to reason: the specified blob does not exist: %s", src)
	}
	if err != nil {
		return err
	}
	if err := writeAtomic(to, b); err != nil {
		return err
	}
	fmt.Printf("Final Job Status: Completed\nNumber of File Transfers: 1\nTotal Number of Bytes Transferred: %d\n", len(b))
	return nil
}

// blobsUnder returns the files under a blob URL taken as a prefix (the directory it names), with
// their paths relative to it.
func blobsUnder(st *state, raw string) (string, []string, error) {
	dir, err := st.blobPath(strings.TrimSuffix(strings.TrimSuffix(raw, "*"), "/") + "/")
	if err != nil {
		return "", nil, err
	}
	var rel []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".tmp-") {
			return nil
		}
		r, _ := filepath.Rel(dir, p)
		rel = append(rel, filepath.ToSlash(r))
		return nil
	})
	sort.Strings(rel)
	return dir, rel, err
}

func azcopyList(st *state, raw string) error {
	dir, rel, err := blobsUnder(st, raw)
	if err != nil {
		return err
	}
	for _, r := range rel {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(r)))
		if err != nil {
			continue
		}
		fmt.Printf("INFO: %s;  Content Length: %d\n", r, fi.Size())
	}
	return nil
}

func azcopyRecursive(st *state, src, dst, include string) error {
	if !isBlobURL(src) || isBlobURL(dst) {
		return fail("azcopy cp --recursive: from a blob prefix to a local directory only")
	}
	dir, rel, err := blobsUnder(st, src)
	if err != nil {
		return err
	}
	n := 0
	for _, r := range rel {
		if include != "" && !matchesAny(filepath.Base(r), strings.Split(include, ";")) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(r)))
		if err != nil {
			return err
		}
		if err := writeAtomic(filepath.Join(dst, filepath.FromSlash(r)), b); err != nil {
			return err
		}
		n++
	}
	fmt.Printf("Final Job Status: Completed\nNumber of File Transfers: %d\n", n)
	return nil
}

func matchesAny(name string, patterns []string) bool {
	for _, p := range patterns {
		if ok, _ := filepath.Match(strings.TrimSpace(p), name); ok {
			return true
		}
	}
	return false
}
