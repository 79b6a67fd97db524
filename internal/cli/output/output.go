// Package output is the one printer of osctl: every command prints its result through Print as a
// table, JSON, YAML, or (for streams of records) JSON lines.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
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
)

var formats = []Format{Table, JSON, YAML, JSONL}

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
		return []string{"table", "json", "yaml", "jsonl"}, cobra.ShellCompDirectiveNoFileComp
	})
}

// Print writes v in format f. For Table it calls table, which writes a human view of v; the value
// itself is a pkg type with json tags. JSONL writes v as one line.
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
		return table(w)
	}
}

// NewTable returns a borderless, parseable table with the given header.
func NewTable(w io.Writer, header ...string) *tablewriter.Table {
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenRows: tw.Off, BetweenColumns: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.Off},
			},
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithTrimSpace(tw.Off),
	)
	h := make([]any, len(header))
	for i, s := range header {
		h[i] = s
	}
	t.Header(h...)
	return t
}
