package output

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// TableWriter is a borderless, parseable table. On a terminal (Width) its widest cells are cut with an
// ellipsis so that every line fits; elsewhere, and with -o wide, every cell stays whole.
type TableWriter struct {
	w      io.Writer
	header []string
	rows   [][]string
}

// NewTable returns a table with the given header that renders to w.
func NewTable(w io.Writer, header ...string) *TableWriter {
	return &TableWriter{w: w, header: header}
}

// Append adds one row: its cells, or one []string or []any holding them.
func (t *TableWriter) Append(cells ...any) error {
	if len(cells) == 1 {
		switch c := cells[0].(type) {
		case []string:
			t.rows = append(t.rows, append([]string(nil), c...))
			return nil
		case []any:
			cells = c
		}
	}
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = fmt.Sprint(c)
	}
	t.rows = append(t.rows, row)
	return nil
}

// Render writes the table.
func (t *TableWriter) Render() error {
	cols := Width(t.w)
	if cols <= 0 {
		return t.render(t.w, t.rows)
	}
	// Render once to learn the table's own spacing, then cut the widest columns to what is left.
	var buf bytes.Buffer
	if err := t.render(&buf, t.rows); err != nil {
		return err
	}
	widest := 0
	for _, l := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		widest = max(widest, DisplayWidth(l))
	}
	if widest <= cols {
		_, err := t.w.Write(buf.Bytes())
		return err
	}
	natural := t.widths()
	sum := 0
	for _, n := range natural {
		sum += n
	}
	room := cols - (widest - sum)
	caps := fit(natural, t.minWidths(), room)
	rows := make([][]string, len(t.rows))
	for i, r := range t.rows {
		rows[i] = make([]string, len(r))
		for j, c := range r {
			if j < len(caps) {
				c = Cut(c, caps[j])
			}
			rows[i][j] = c
		}
	}
	return t.render(t.w, rows)
}

// widths are the columns' natural widths: their widest cell or header.
func (t *TableWriter) widths() []int {
	ws := make([]int, len(t.header))
	for j, h := range t.header {
		ws[j] = DisplayWidth(h)
	}
	for _, r := range t.rows {
		for j, c := range r {
			if j < len(ws) {
				ws[j] = max(ws[j], DisplayWidth(c))
			}
		}
	}
	return ws
}

// minWidths are what a column keeps when cut: its header, at least 3 columns, at most its width.
func (t *TableWriter) minWidths() []int {
	nat := t.widths()
	ms := make([]int, len(t.header))
	for j, h := range t.header {
		ms[j] = min(max(DisplayWidth(h), 3), nat[j])
	}
	return ms
}

// fit gives each column a width so that they add up to at most room: the narrow ones keep their
// width, the wide ones share what is left equally (none below its minimum).
func fit(natural, minimum []int, room int) []int {
	caps := append([]int(nil), natural...)
	order := make([]int, len(natural))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return natural[order[a]] < natural[order[b]] })
	left := room
	for k, j := range order {
		share := left / (len(order) - k)
		caps[j] = max(min(natural[j], share), minimum[j])
		left -= caps[j]
	}
	return caps
}

func (t *TableWriter) render(w io.Writer, rows [][]string) error {
	tb := tablewriter.NewTable(w,
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
	h := make([]any, len(t.header))
	for i, s := range t.header {
		h[i] = s
	}
	tb.Header(h...)
	for _, r := range rows {
		if err := tb.Append(r); err != nil {
			return err
		}
	}
	return tb.Render()
}
