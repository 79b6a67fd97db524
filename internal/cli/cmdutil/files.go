package cmdutil

import (
	"fmt"
	"net/http"
	"os"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// Files are output files a command opened before doing its work, by path.
type Files map[string]*os.File

// CreateFiles creates every non-empty path (each once) before a command does its work, so that a
// bad path fails at once rather than after a long run. On error nothing stays open.
func CreateFiles(paths ...string) (Files, error) {
	files := Files{}
	for _, p := range paths {
		if p == "" || files[p] != nil {
			continue
		}
		fh, err := os.Create(p)
		if err != nil {
			files.Close()
			return nil, fmt.Errorf("cannot write %s: %v", p, err)
		}
		files[p] = fh
	}
	return files, nil
}

// Close closes every file.
func (f Files) Close() {
	for _, fh := range f {
		_ = fh.Close()
	}
}

// ParseHeaders parses --header 'Name: value' flags: a name that is not a token, or a value with a
// control character (an injected line break), is a usage error.
func ParseHeaders(hs []string) (http.Header, error) {
	out := http.Header{}
	for _, h := range hs {
		k, v, ok := strings.Cut(h, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok || k == "":
			return nil, Usage("--header %q: use 'Name: value'", h)
		case !httpguts.ValidHeaderFieldName(k):
			return nil, Usage("--header %q: %q is not a valid header name (letters, digits and !#$%%&'*+-.^_`|~)", h, k)
		case !httpguts.ValidHeaderFieldValue(v):
			return nil, Usage("--header %q: the value holds a control character (a line break?)", h)
		}
		out.Add(k, v)
	}
	return out, nil
}
