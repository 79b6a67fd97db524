// Package output is the one printer of osctl: every command prints its result through Print as a
// table, JSON, YAML, or (for streams of records) JSON lines.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"
)

// Format is an output format chosen with -o.
type Format string

// The formats -o accepts.
const (
	Table Format = "table"
	JSON  Format = "json"
	YAML  Format = "yaml"
	JSONL Format = "jsonl" // one JSON object per line, for large streamed results
	// Wide is the table with nothing cut, even on a terminal (as kubectl's -o wide shows more).
	Wide Format = "wide"
)

var formats = []Format{Table, Wide, JSON, YAML, JSONL}

// IsTable reports whether f prints a table for people (table or wide).
func (f Format) IsTable() bool { return f == "" || f == Table || f == Wide }

// String implements pflag.Value.
func (f *Format) String() string {
	if *f == "" {
		return string(Table)
	}
	return string(*f)
}

// Set implements pflag.Value; an unknown format fails at flag parsing.
func (f *Format) Set(s string) error {
	for _, ok := range formats {
		if Format(s) == ok {
			*f = ok
			return nil
		}
	}
	return fmt.Errorf("unknown output format %q: use one of %s", s, joinFormats())
}

// Type implements pflag.Value.
func (f *Format) Type() string { return "format" }

func joinFormats() string {
	s := make([]string, len(formats))
	for i, f := range formats {
		s[i] = string(f)
	}
	return strings.Join(s, "|")
}

// AddFlag adds -o/--output to cmd. The default is table.
func AddFlag(cmd *cobra.Command, f *Format) {
	if *f == "" {
		*f = Table
	}
	cmd.Flags().VarP(f, "output", "o", "output format: "+joinFormats())
	_ = cmd.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"table", "wide", "json", "yaml", "jsonl"}, cobra.ShellCompDirectiveNoFileComp
	})
}

// Print writes v in format f. For Table it calls table, which writes a human view of v that fits
// a terminal's width (Width); for Wide the same view, with nothing cut. The value itself is a pkg
// type with json tags. JSONL writes v as one line.
func Print(w io.Writer, f Format, v any, table func(io.Writer) error) error {
	switch f {
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case JSONL:
		return json.NewEncoder(w).Encode(v)
	case YAML:
		b, err := yaml.Marshal(v)
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	default:
		if table == nil {
			return json.NewEncoder(w).Encode(v)
		}
		if f == Wide {
			w = Whole(w)
		}
		return table(w)
	}
}
