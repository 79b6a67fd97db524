//go:build linux

package realnode

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// releaseImageDir is the cache of osctl's release images under $OSCTL_CACHE.
const releaseImageDir = "osctl-image"

var releaseMu sync.Mutex

// ReleaseImage returns the path of osctl's release image of the static binary bin, named name,
// in docker-save form (what `ctr images import` reads): the image `make image-tar` writes,
// built by the project's release tool (tools/release, its own module: `go build` there, then its
// `image -tar` subcommand). It is built once per binary: the tarball is cached under
// $OSCTL_CACHE/osctl-image (else $TMPDIR), keyed by the hashes of the binary, of the name and of
// the release tool's sources. The image's version label is what `bin version` says.
func ReleaseImage(bin, name string) (string, error) {
	releaseMu.Lock()
	defer releaseMu.Unlock()
	root, err := testenv.ModuleRoot()
	if err != nil {
		return "", fmt.Errorf("osctl's module: %w", err)
	}
	toolSrc := filepath.Join(root, "tools", "release")
	toolSum, err := hashTree(toolSrc)
	if err != nil {
		return "", fmt.Errorf("the release tool's sources: %w", err)
	}
	binSum, err := hashFile(bin)
	if err != nil {
		return "", fmt.Errorf("osctl binary for the image: %w", err)
	}
	dir := releaseCacheDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	key := sha256.Sum256([]byte(binSum + "\n" + name + "\n" + toolSum))
	out := filepath.Join(dir, hex.EncodeToString(key[:8])+".tar")
	if _, err := os.Stat(out); err == nil {
		now := time.Now()
		_ = os.Chtimes(out, now, now) // used: kept by pruneReleaseImages
		return out, nil
	}
	tool := filepath.Join(dir, "osctl-release-"+toolSum[:16])
	if _, err := os.Stat(tool); err != nil {
		if err := buildReleaseTool(toolSrc, tool); err != nil {
			return "", err
		}
	}
	version, err := exec.Command(bin, "version").Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %w", bin, err)
	}
	tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
	cmd := exec.Command(tool, "image", "-version", strings.TrimSpace(string(version)), "-epoch", "0", "-tag", name,
		"-bin", "linux/amd64="+bin, "-tar", tmp)
	if b, err := cmd.CombinedOutput(); err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("the release tool's image -tar: %v: %s", err, b)
	}
	if err := os.Rename(tmp, out); err != nil {
		return "", err
	}
	pruneReleaseImages(dir, out, tool)
	return out, nil
}

// releaseCacheDir is $OSCTL_CACHE/osctl-image when OSCTL_CACHE is set, else one under $TMPDIR.
func releaseCacheDir() string {
	if c := os.Getenv("OSCTL_CACHE"); c != "" {
		return filepath.Join(c, releaseImageDir)
	}
	return filepath.Join(os.TempDir(), "osctl-cache", releaseImageDir)
}

// buildReleaseTool builds tools/release (a module of its own) into out.
func buildReleaseTool(src, out string) error {
	tmp := fmt.Sprintf("%s.%d.tmp", out, os.Getpid())
	cmd := exec.Command("go", "build", "-trimpath", "-o", tmp, ".")
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the release tool (cd tools/release && go build): %v: %s", err, b)
	}
	return os.Rename(tmp, out)
}

// pruneReleaseImages removes the cached images and tools other than keep that nobody used for a
// day: each test build of osctl has its own image.
func pruneReleaseImages(dir string, keep ...string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		fi, err := e.Info()
		if err != nil || fi.IsDir() || slices.Contains(keep, p) || time.Since(fi.ModTime()) < 24*time.Hour {
			continue
		}
		_ = os.Remove(p)
	}
}

func hashFile(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashTree hashes the names and contents of the regular files directly in dir (the release tool
// is one package), sorted by name.
func hashTree(dir string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		s, err := hashFile(filepath.Join(dir, n))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %s\n", n, s)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
