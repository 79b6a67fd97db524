package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

// archiveName is the release archive of one platform, as GoReleaser names them.
func archiveName(version, goos, goarch string) string {
	return fmt.Sprintf("osctl_%s_%s_%s.tar.gz", version, goos, goarch)
}

// runArchive writes osctl_VERSION_OS_ARCH.tar.gz: the binary as osctl and each further file
// (README.md, LICENSE) under its base name.
func runArchive(args []string) error {
	fs := flag.NewFlagSet("archive", flag.ContinueOnError)
	version := fs.String("version", "", "release version")
	epoch := fs.String("epoch", "", "mtime of every member, seconds since 1970")
	goos := fs.String("os", "", "GOOS")
	goarch := fs.String("arch", "", "GOARCH")
	bin := fs.String("bin", "", "the osctl binary")
	out := fs.String("out", "dist", "output directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" || *goos == "" || *goarch == "" || *bin == "" {
		return fmt.Errorf("archive needs -version, -os, -arch and -bin")
	}
	at, err := epochTime(*epoch)
	if err != nil {
		return err
	}
	binName := "osctl"
	if *goos == "windows" {
		binName += ".exe"
	}
	e, err := fileEntry(binName, *bin)
	if err != nil {
		return err
	}
	e.Mode = 0o755
	entries := []entry{e}
	for _, path := range fs.Args() {
		e, err := fileEntry(filepath.Base(path), path)
		if err != nil {
			return err
		}
		e.Mode = 0o644
		entries = append(entries, e)
	}
	data, err := tarGz(entries, at)
	if err != nil {
		return err
	}
	dest := filepath.Join(*out, archiveName(*version, *goos, *goarch))
	if err := os.WriteFile(dest, data, 0o644); err != nil {
		return err
	}
	fmt.Println(dest)
	return nil
}
