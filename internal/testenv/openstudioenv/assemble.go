package openstudioenv

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/template"
)

// deploy is the deployment configuration this environment lays over upstream's app (see
// third_party/README.md): config/mongoid.yml, config/config.yml and lib/tasks/resque.rake, the
// Gemfile, and two small path gems (Ruby 2.7's Kernel#open of URLs; an empty resque-web engine).
//
//go:embed deploy
var deploy embed.FS

// Upstream's app and the vendored gems, relative to the module root.
const (
	upstreamDir = "third_party/openstudio-server-v3.7.0"
	gemsDir     = "third_party/ruby-gems"
	lockModule  = "contrib/rails/osctl_lock.rb"
	lockPatch   = "contrib/rails/openstudio-server-v3.7.0.patch"
)

// assemble lays out the deployment under dir: dir/app/server is a copy of upstream's server/
// (patched when asked), with the deployment's config files over it; dir/app/Gemfile names
// Debian's gems and the vendored ones; dir/deploy holds the path gems. The vendored tree itself
// is never written.
func assemble(root, dir string, patched bool) (app string, err error) {
	app = filepath.Join(dir, "app")
	server := filepath.Join(app, "server")
	if err := os.MkdirAll(app, 0o755); err != nil {
		return "", err
	}
	if out, err := exec.Command("cp", "-r", filepath.Join(root, upstreamDir, "server"), app).CombinedOutput(); err != nil {
		return "", fmt.Errorf("copying upstream's server/: %v: %s", err, out)
	}
	if patched {
		if err := applyPatch(root, app); err != nil {
			return "", err
		}
	}
	dep := filepath.Join(dir, "deploy")
	if err := writeDeploy(dep); err != nil {
		return "", err
	}
	for _, f := range []string{"config/mongoid.yml", "config/config.yml", "lib/tasks/resque.rake"} {
		b, err := os.ReadFile(filepath.Join(dep, f))
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(server, f), b, 0o644); err != nil {
			return "", err
		}
	}
	tmpl, err := template.ParseFS(deploy, "deploy/Gemfile.tmpl")
	if err != nil {
		return "", err
	}
	var gf bytes.Buffer
	if err := tmpl.Execute(&gf, map[string]string{"Vendor": filepath.Join(root, gemsDir), "Deploy": dep}); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(app, "Gemfile"), gf.Bytes(), 0o644); err != nil {
		return "", err
	}
	// Bundler resolves against the installed gems only (the Gemfile names no gem server).
	lock := exec.Command("bundle", "lock", "--local")
	lock.Dir, lock.Env = app, append(os.Environ(), "BUNDLE_GEMFILE="+filepath.Join(app, "Gemfile"))
	if out, err := lock.CombinedOutput(); err != nil {
		return "", fmt.Errorf("bundle lock --local: %v: %s", err, lastLines(string(out), 15))
	}
	return app, nil
}

// applyPatch installs osctl's lock as the migration guide says: osctl_lock.rb copied to
// server/lib/, then `git apply` of the patch from the directory that holds server/.
func applyPatch(root, app string) error {
	mod, err := os.ReadFile(filepath.Join(root, lockModule))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(app, "server", "lib", "osctl_lock.rb"), mod, 0o644); err != nil {
		return err
	}
	cmd := exec.Command("git", "apply", "--whitespace=error-all", filepath.Join(root, lockPatch))
	cmd.Dir = app
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git apply %s: %v: %s", lockPatch, err, out)
	}
	return nil
}

func writeDeploy(dst string) error {
	return fs.WalkDir(deploy, "deploy", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		out := filepath.Join(dst, strings.TrimPrefix(p, "deploy"))
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := deploy.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
