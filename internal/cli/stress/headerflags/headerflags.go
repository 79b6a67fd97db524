// Package headerflags are the request header flags of osctl stress and osctl stress cleanup:
// --header, --header-file and the OSCTL_STRESS_HEADERS environment variable. A token given in a
// file or in the environment stays off the command line, where ps shows it.
package headerflags

import (
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
)

// EnvVar holds request headers, one 'Name: value' per line (a value may hold commas, so lines,
// not commas, separate them). Blank lines and lines starting with # are skipped.
const EnvVar = "OSCTL_STRESS_HEADERS"

// Flags are --header and --header-file.
type Flags struct {
	Headers []string
	File    string
}

// Add binds the flags; what says which requests the headers go with.
func (f *Flags) Add(cmd *cobra.Command, what string) {
	fl := cmd.Flags()
	fl.StringArrayVar(&f.Headers, "header", nil, what+": request header 'Name: value' (repeatable; the job API's token goes here: 'X-ELB-API-Token: TOKEN'); values are never printed. A secret is better in --header-file or $"+EnvVar+", which ps does not show")
	fl.StringVar(&f.File, "header-file", "", what+": a file of request headers, one 'Name: value' per line (blank lines and # comments skipped), added to --header's and $"+EnvVar+"'s (one 'Name: value' per line, as in the file)")
}

// Parse returns the headers of the environment variable, the file and the flags, in that order,
// each value added to secrets so that no error shows it, and a note naming the headers that came
// from the environment ("" when none did): a variable left set goes with every run. An error is a
// usage error naming where the bad header is (the variable's or the file's line, the flag's
// position) and never its value.
func (f *Flags) Parse(secrets interface{ Add(string) }) (http.Header, string, error) {
	out := http.Header{}
	env, err := parseLines(out, EnvVar+" line", os.Getenv(EnvVar))
	if err != nil {
		return nil, "", err
	}
	if f.File != "" {
		b, err := os.ReadFile(f.File)
		if err != nil {
			return nil, "", cmdutil.Usage("cannot read --header-file: %v", err)
		}
		if _, err := parseLines(out, "--header-file "+f.File+" line", string(b)); err != nil {
			return nil, "", err
		}
	}
	flags, err := cmdutil.ParseHeaders(f.Headers)
	if err != nil {
		return nil, "", err
	}
	for k, vs := range flags {
		out[k] = append(out[k], vs...)
	}
	for _, vs := range out {
		for _, v := range vs {
			secrets.Add(v)
		}
	}
	note := ""
	if len(env) > 0 {
		note = fmt.Sprintf("headers from $%s: %s", EnvVar, strings.Join(env, ", "))
	}
	return out, note, nil
}

// parseLines adds the headers of text, one per line, to out and returns their names.
func parseLines(out http.Header, where, text string) ([]string, error) {
	var names []string
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		k, v, err := cmdutil.ParseHeader(fmt.Sprintf("%s %d", where, i+1), line)
		if err != nil {
			return nil, err
		}
		out.Add(k, v)
		names = append(names, http.CanonicalHeaderKey(k))
	}
	return names, nil
}
