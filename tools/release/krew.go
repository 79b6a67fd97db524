package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"
)

// krewPlatform is one spec.platforms item of the krew manifest.
type krewPlatform struct {
	OS, Arch, URI, SHA256 string
	Files                 []string // archive members to install besides the binary
}

var krewManifest = template.Must(template.New("krew").Parse(`apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: osctl
spec:
  version: {{.Version}}
  homepage: https://github.com/osctl/osctl
  shortDescription: Scale a stateful web tier from one replica to many safely
  description: |
    osctl takes a stateful web tier (OpenStudio Server: Rails, Resque on Redis,
    a shared NFS volume) from one replica to many without corrupting shared
    state: Redis locks you can inspect and break safely, NFS and Redis
    preflight checks, a stress run that judges the resulting file state, a
    gated 1 -> 2 -> N HPA rollout, and a local sandbox that reproduces the races.
  platforms:
{{- range .Platforms}}
  - selector:
      matchLabels:
        os: {{.OS}}
        arch: {{.Arch}}
    uri: {{.URI}}
    sha256: {{.SHA256}}
    files:
    - from: osctl
      to: .
{{- range .Files}}
    - from: {{.}}
      to: .
{{- end}}
    bin: osctl
{{- end}}
`))

// runKrew writes the krew plugin manifest for the given archives, each downloaded from
// -url-base (the GitHub release of the version) and pinned by its sha256.
func runKrew(args []string) error {
	fs := flag.NewFlagSet("krew", flag.ContinueOnError)
	version := fs.String("version", "", "release version")
	urlBase := fs.String("url-base", "", "where the archives are downloaded from (default: the GitHub release of -version)")
	out := fs.String("out", "dist/krew/osctl.yaml", "manifest path (krew wants PLUGIN.yaml)")
	files := fs.String("files", "README.md", "comma-separated archive members installed beside the binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" || fs.NArg() == 0 {
		return fmt.Errorf("krew needs -version and the archives")
	}
	if *urlBase == "" {
		*urlBase = "https://github.com/osctl/osctl/releases/download/" + *version
	}
	var platforms []krewPlatform
	for _, path := range fs.Args() {
		p, err := krewPlatformOf(path, *version, *urlBase)
		if err != nil {
			return err
		}
		p.Files = strings.Split(*files, ",")
		platforms = append(platforms, p)
	}
	sort.Slice(platforms, func(i, j int) bool { return platforms[i].OS+platforms[i].Arch < platforms[j].OS+platforms[j].Arch })
	var b strings.Builder
	if err := krewManifest.Execute(&b, map[string]any{"Version": *version, "Platforms": platforms}); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(*out, []byte(b.String()), 0o644)
}

// krewPlatformOf reads OS and arch from an archive's name (osctl_VERSION_OS_ARCH.tar.gz) and
// hashes it.
func krewPlatformOf(path, version, urlBase string) (krewPlatform, error) {
	name := filepath.Base(path)
	rest, ok := strings.CutPrefix(name, "osctl_"+version+"_")
	rest, ok2 := strings.CutSuffix(rest, ".tar.gz")
	goos, goarch, ok3 := strings.Cut(rest, "_")
	if !ok || !ok2 || !ok3 {
		return krewPlatform{}, fmt.Errorf("%s: not an archive of osctl %s (osctl_%s_OS_ARCH.tar.gz)", path, version, version)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return krewPlatform{}, err
	}
	sum := sha256.Sum256(data)
	return krewPlatform{OS: goos, Arch: goarch, URI: strings.TrimSuffix(urlBase, "/") + "/" + name,
		SHA256: hex.EncodeToString(sum[:])}, nil
}
