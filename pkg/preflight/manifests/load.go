// Package manifests runs the static preflight rules over rendered Kubernetes manifests (helm
// template output, kubectl get -o yaml) and Helm values: the web workload's HPA and locking,
// its NFS volume options, its rollout surge, an in-cluster NFS-Ganesha server, single-owner
// workloads, PDBs and spreading, and Passenger capacity.
package manifests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Object is one Kubernetes object from the input, with where it came from.
type Object struct {
	File        string            `json:"file"`
	Line        int               `json:"line"`
	APIVersion  string            `json:"apiVersion"`
	Kind        string            `json:"kind"`
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	JSON        []byte            `json:"-"`
}

// Where is "file:line".
func (o Object) Where() string { return fmt.Sprintf("%s:%d", o.File, o.Line) }

// InputError names the file and line of malformed input.
type InputError struct {
	File string
	Line int
	Msg  string
}

func (e *InputError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// maxInput bounds one input file.
const maxInput = 64 << 20

// Inputs are the files found under the -f arguments.
type Inputs struct {
	Objects []Object
	// ValuesFiles are Helm values files met in a directory (files named values*.yaml whose
	// documents are not Kubernetes objects).
	ValuesFiles []string
}

// Load reads every -f argument: a file, a directory (its *.yaml, *.yml and *.json files,
// recursively, in name order), or "-" for stdin.
func Load(args []string, stdin io.Reader) (*Inputs, error) {
	in := &Inputs{}
	for _, a := range args {
		if a == "-" {
			b, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
			if err != nil {
				return nil, fmt.Errorf("reading stdin: %v", err)
			}
			objs, err := ParseDocuments(b, "stdin")
			if err != nil {
				return nil, err
			}
			in.Objects = append(in.Objects, objs...)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("reading manifests: %v", err)
		}
		if !st.IsDir() {
			objs, err := loadFile(a)
			if err != nil {
				return nil, err
			}
			in.Objects = append(in.Objects, objs...)
			continue
		}
		var files []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != a && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".yaml", ".yml", ".json":
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading manifests: %v", err)
		}
		sort.Strings(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("reading manifests: %s holds no .yaml, .yml or .json file", a)
		}
		for _, p := range files {
			if isValuesName(p) {
				if ok, _ := looksLikeValues(p); ok {
					in.ValuesFiles = append(in.ValuesFiles, p)
					continue
				}
			}
			objs, err := loadFile(p)
			if err != nil {
				return nil, err
			}
			in.Objects = append(in.Objects, objs...)
		}
	}
	return in, nil
}

func isValuesName(p string) bool {
	b := strings.ToLower(filepath.Base(p))
	return strings.HasPrefix(b, "values") || strings.HasSuffix(strings.TrimSuffix(strings.TrimSuffix(b, ".yaml"), ".yml"), "-values")
}

// looksLikeValues reports whether a file has no document with a kind (a Helm values file).
func looksLikeValues(p string) (bool, error) {
	b, err := readFile(p)
	if err != nil {
		return false, err
	}
	for _, d := range splitDocuments(b) {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(d.text), &m); err != nil {
			return false, nil
		}
		if _, ok := m["kind"]; ok {
			return false, nil
		}
	}
	return true, nil
}

func readFile(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("reading manifests: %v", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %v", p, err)
	}
	if len(b) > maxInput {
		return nil, &InputError{File: p, Msg: fmt.Sprintf("larger than %d MiB", maxInput>>20)}
	}
	return b, nil
}

func loadFile(p string) ([]Object, error) {
	b, err := readFile(p)
	if err != nil {
		return nil, err
	}
	return ParseDocuments(b, p)
}

type document struct {
	start int // line of the document's first line
	text  string
}

var docSep = regexp.MustCompile(`^---(\s.*)?$`)

// splitDocuments splits a YAML stream on "---" lines (and "..." document ends), keeping each
// document's first line number. Documents of only comments and blank lines are dropped.
func splitDocuments(b []byte) []document {
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	var out []document
	var cur []string
	start := 1
	flush := func() {
		empty := true
		for _, l := range cur {
			t := strings.TrimSpace(l)
			if t != "" && !strings.HasPrefix(t, "#") {
				empty = false
				break
			}
		}
		if !empty {
			out = append(out, document{start: start, text: strings.Join(cur, "\n")})
		}
		cur = nil
	}
	for i, l := range lines {
		if docSep.MatchString(strings.TrimRight(l, " \t")) || strings.TrimRight(l, " \t") == "..." {
			flush()
			start = i + 2
			// "--- {a: b}" or "--- |" carries content on the separator line.
			if rest := strings.TrimSpace(strings.TrimPrefix(l, "---")); strings.HasPrefix(l, "---") && rest != "" && !strings.HasPrefix(rest, "#") {
				cur = append(cur, rest)
				start = i + 1
			}
			continue
		}
		cur = append(cur, l)
	}
	flush()
	return out
}

var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// yamlError rewrites a YAML error of a document to name the file and the absolute line.
func yamlError(file string, d document, err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "error converting YAML to JSON: ")
	msg = strings.TrimPrefix(msg, "yaml: ")
	line := d.start
	if m := yamlLineRe.FindStringSubmatchIndex(msg); m != nil {
		n, _ := strconv.Atoi(msg[m[2]:m[3]])
		line = d.start + n - 1
		msg = strings.TrimSpace(strings.TrimPrefix(msg[:m[0]]+msg[m[1]:], ":"))
		msg = strings.TrimPrefix(msg, ": ")
	}
	return &InputError{File: file, Line: line, Msg: "invalid YAML: " + strings.TrimSpace(msg)}
}

// ParseDocuments parses a multi-document YAML (or JSON) stream into objects. Empty documents,
// comments and Helm's "# Source:" lines are skipped; a "kind: List" is expanded into its items.
// Malformed input is an *InputError naming file and line.
func ParseDocuments(b []byte, file string) ([]Object, error) {
	var out []Object
	for _, d := range splitDocuments(b) {
		j, err := yaml.YAMLToJSON([]byte(d.text))
		if err != nil {
			return nil, yamlError(file, d, err)
		}
		j = bytes.TrimSpace(j)
		if bytes.Equal(j, []byte("null")) {
			continue
		}
		if len(j) == 0 || j[0] != '{' {
			return nil, &InputError{File: file, Line: d.start, Msg: "document is not a mapping (a Kubernetes object)"}
		}
		objs, err := objectsOf(j, file, d.start)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

type header struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		Annotations map[string]string `json:"annotations"`
		Labels      map[string]string `json:"labels"`
	} `json:"metadata"`
	Items []json.RawMessage `json:"items"`
}

func objectsOf(j []byte, file string, line int) ([]Object, error) {
	var h header
	if err := json.Unmarshal(j, &h); err != nil {
		return nil, &InputError{File: file, Line: line, Msg: "bad object header: " + jsonMsg(err)}
	}
	if h.Kind == "" {
		return nil, &InputError{File: file, Line: line, Msg: "document has no kind (a Helm values file? give it as the values)"}
	}
	if h.Kind == "List" || strings.HasSuffix(h.Kind, "List") && h.Items != nil {
		var out []Object
		for _, it := range h.Items {
			objs, err := objectsOf(it, file, line)
			if err != nil {
				return nil, err
			}
			out = append(out, objs...)
		}
		return out, nil
	}
	return []Object{{File: file, Line: line, APIVersion: h.APIVersion, Kind: h.Kind, Name: h.Metadata.Name,
		Namespace: h.Metadata.Namespace, Annotations: h.Metadata.Annotations, Labels: h.Metadata.Labels, JSON: j}}, nil
}

func jsonMsg(err error) string {
	var te *json.UnmarshalTypeError
	if ok := asTypeError(err, &te); ok {
		return fmt.Sprintf("field %s: %s is not a %s", te.Field, te.Value, te.Type)
	}
	return err.Error()
}

func asTypeError(err error, te **json.UnmarshalTypeError) bool {
	t, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*te = t
	}
	return ok
}
