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
// control character, is a usage error. An error names the flag by its position (and the header
// by its name once the name is valid), never by its value, which may be a token.
func ParseHeaders(hs []string) (http.Header, error) {
	out := http.Header{}
	for i, h := range hs {
		k, v, err := ParseHeader(fmt.Sprintf("--header #%d", i+1), h)
		if err != nil {
			return nil, err
		}
		out.Add(k, v)
	}
	return out, nil
}

// ParseHeader parses one 'Name: value' line from where (a flag's position, a file's line). Its
// errors are usage errors that name where and, once it is valid, the name: never the value, nor
// a name that is not valid (a token pasted without its name would be one).
func ParseHeader(where, line string) (name, value string, err error) {
	k, v, ok := strings.Cut(line, ":")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	switch {
	case !ok || k == "":
		return "", "", Usage("%s: use 'Name: value' (what was given is not shown: it may hold a secret)", where)
	case !httpguts.ValidHeaderFieldName(k):
		return "", "", Usage("%s: the part before ':' is not a valid header name (letters, digits and !#$%%&'*+-.^_`|~); what was given is not shown", where)
	case !httpguts.ValidHeaderFieldValue(v):
		return "", "", Usage("%s (%s): the value holds a control character (a line break?)", where, k)
	}
	return k, v, nil
}
