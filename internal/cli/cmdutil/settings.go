package cmdutil

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/pkg/setting"
)

// settingsAnnotation is the cobra annotation that holds a command's Settings.
const settingsAnnotation = "osctl.settings"

// Settings maps the Go names of the library settings a command wires to its flags ("Steps":
// "--steps"), so that a library's *setting.Error reads as the command line's usage error.
type Settings map[string]string

// NameSettings records on cmd which flag sets each library setting (see Settings); a command
// inherits its parent's names unless it names the setting itself.
func NameSettings(cmd *cobra.Command, names Settings) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	var b strings.Builder
	b.WriteString(cmd.Annotations[settingsAnnotation])
	for k, v := range names {
		b.WriteString(k + "=" + v + "\n")
	}
	cmd.Annotations[settingsAnnotation] = b.String()
}

// Flag returns the flag that sets the setting name, or name itself when s does not know it.
func (s Settings) Flag(name string) string {
	if f, ok := s[name]; ok {
		return f
	}
	return name
}

// Text returns text with its {Name} setting references (pkg/setting.Refs) named as these flags;
// a name not in s stays its Go name.
func (s Settings) Text(text string) string {
	return setting.Refs(text, s.Flag)
}

// settingsOf returns the names recorded on cmd and its parents, the nearest first.
func settingsOf(cmd *cobra.Command) Settings {
	out := Settings{}
	for c := cmd; c != nil; c = c.Parent() {
		for _, line := range strings.Split(c.Annotations[settingsAnnotation], "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				if _, seen := out[k]; !seen {
					out[k] = v
				}
			}
		}
	}
	return out
}

// RenderSetting rewrites err's message when its chain holds a *setting.Error: the settings it
// names read as cmd's flags (a name cmd does not know stays its Go name). The chain is kept, so
// the error's kind (a *UsageError, say) and its exit code stay. Any other error is returned as
// it is.
func RenderSetting(cmd *cobra.Command, err error) error {
	if err == nil || cmd == nil {
		return err
	}
	names := settingsOf(cmd)
	msg := err.Error()
	if se, ok := setting.As(err); ok {
		msg = strings.Replace(msg, se.Error(), se.Render(names.Flag), 1)
	}
	// Free text from a library names settings as {Name} too (setting.Refs).
	if flagged := names.Text(msg); flagged != err.Error() {
		return renderedError{msg: flagged, err: err}
	}
	return err
}

// RedisSettings names pkg/redisconn's settings, as libraries refer to them ({Redis.CAFile}), as
// the global Redis flags (AddGlobalFlags).
var RedisSettings = Settings{
	"Redis.URLs": "--redis", "Redis.Clusters": "--redis-cluster", "Redis.Sentinels": "--redis-sentinel",
	"Redis.SentinelMaster": "--redis-sentinel-master", "Redis.CAFile": "--redis-ca",
	"Redis.Password": "--redis-password-file or --redis-secret", "Redis.Service": "--redis-service",
}

type renderedError struct {
	msg string
	err error
}

func (e renderedError) Error() string { return e.msg }
func (e renderedError) Unwrap() error { return e.err }
