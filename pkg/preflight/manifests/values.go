package manifests

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Values are Helm values (values.yaml, or the merged -f files of helm template).
type Values struct {
	File string
	Raw  map[string]any
}

// LoadValues reads a Helm values file.
func LoadValues(path string) (*Values, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return ParseValues(b, path)
}

// ParseValues parses Helm values. Malformed YAML is an *InputError naming file and line; the
// top level must be a mapping (an empty file is empty values).
func ParseValues(b []byte, file string) (*Values, error) {
	docs := splitDocuments(b)
	v := &Values{File: file, Raw: map[string]any{}}
	if len(docs) == 0 {
		return v, nil
	}
	if len(docs) > 1 {
		return nil, &InputError{File: file, Line: docs[1].start, Msg: "a values file holds one YAML document"}
	}
	d := docs[0]
	j, err := yaml.YAMLToJSON([]byte(d.text))
	if err != nil {
		return nil, yamlError(file, d, err)
	}
	if string(j) == "null" {
		return v, nil
	}
	if err := yaml.Unmarshal([]byte(d.text), &v.Raw); err != nil {
		return nil, &InputError{File: file, Line: d.start, Msg: "values must be a mapping at the top level"}
	}
	if _, ok := v.Raw["kind"]; ok {
		if _, ok := v.Raw["apiVersion"]; ok {
			return nil, &InputError{File: file, Line: d.start, Msg: "this is a Kubernetes object, not Helm values: pass it with -f"}
		}
	}
	return v, nil
}

// Get walks dotted keys ("web_hpa", "distributedLocking", "enabled").
func (v *Values) Get(keys ...string) (any, bool) {
	if v == nil {
		return nil, false
	}
	var cur any = v.Raw
	for _, k := range keys {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// Bool reads a boolean value (true/false, or a string such as "true"); set says it was there.
func (v *Values) Bool(keys ...string) (val, set bool) {
	x, ok := v.Get(keys...)
	if !ok {
		return false, false
	}
	return truthy(x), true
}

// Int reads an integer value (a number or a numeric string).
func (v *Values) Int(keys ...string) (int, bool) {
	x, ok := v.Get(keys...)
	if !ok {
		return 0, false
	}
	return toInt(x)
}

// Strings reads a list of strings.
func (v *Values) Strings(keys ...string) ([]string, bool) {
	x, ok := v.Get(keys...)
	if !ok {
		return nil, false
	}
	l, ok := x.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, e := range l {
		out = append(out, fmt.Sprint(e))
	}
	return out, true
}

func truthy(x any) bool {
	switch t := x.(type) {
	case bool:
		return t
	case string:
		switch strings.ToLower(strings.TrimSpace(t)) {
		case "true", "yes", "on", "1", "enabled":
			return true
		}
	case float64:
		return t != 0
	}
	return false
}

func toInt(x any) (int, bool) {
	switch t := x.(type) {
	case float64:
		return int(t), t == float64(int(t))
	case int:
		return t, true
	case int64:
		return int(t), true
	case string:
		n, err := strconv.Atoi(strings.TrimSpace(t))
		return n, err == nil
	}
	return 0, false
}
