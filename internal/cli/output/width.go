package output

import (
	"io"
	"os"
	"strings"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"golang.org/x/term"
)

// Ellipsis ends a cut text.
const Ellipsis = "…"

// widther is a writer that knows the width it must fit (0: no limit).
type widther interface{ TerminalWidth() int }

// sized is a writer with a width.
type sized struct {
	io.Writer
	cols int
}

func (s sized) TerminalWidth() int { return s.cols }

// Terminal wraps w as a terminal of cols columns: what osctl prints to it is cut to fit, as on a
// real terminal (tests, and the streams' override).
func Terminal(w io.Writer, cols int) io.Writer { return sized{w, cols} }

// Whole wraps w so that nothing printed to it is cut, even on a terminal (-o wide).
func Whole(w io.Writer) io.Writer { return sized{w, 0} }

// Width is the number of columns w must fit: a terminal's width, or 0 (no limit) when w is not
// a terminal (a pipe, a file): what goes there stays whole and parseable.
func Width(w io.Writer) int {
	if s, ok := w.(widther); ok {
		return s.TerminalWidth()
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return 0
}

// DisplayWidth is how many columns s takes on a terminal.
func DisplayWidth(s string) int { return twwidth.Width(s) }

// Cut shortens s to at most cols columns, ending it with an ellipsis when it was cut; cols 0 or
// less keeps it whole.
func Cut(s string, cols int) string {
	if cols <= 0 || DisplayWidth(s) <= cols {
		return s
	}
	if cols == 1 {
		return Ellipsis
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := DisplayWidth(string(r))
		if w+rw > cols-1 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	return b.String() + Ellipsis
}

// Wrap breaks text into lines of at most cols columns at spaces, the first line starting with
// first and the others with indent; cols 0 keeps it on one line. A word longer than a line is cut.
func Wrap(text string, cols int, first, indent string) []string {
	if cols <= 0 {
		return []string{first + text}
	}
	var lines []string
	line, lw := first, DisplayWidth(first)
	empty := true
	for _, word := range strings.Fields(text) {
		ww := DisplayWidth(word)
		switch {
		case empty:
		case lw+1+ww <= cols:
			line, lw = line+" ", lw+1
		default:
			lines = append(lines, line)
			line, lw = indent, DisplayWidth(indent)
		}
		if lw+ww > cols {
			word = Cut(word, max(cols-lw, 1))
			ww = DisplayWidth(word)
		}
		line, lw, empty = line+word, lw+ww, false
	}
	return append(lines, line)
}

// Fprintw prints text to w wrapped to w's width (Wrap), each line ending in a newline.
func Fprintw(w io.Writer, text, first, indent string) {
	for _, l := range Wrap(text, Width(w), first, indent) {
		_, _ = io.WriteString(w, l+"\n")
	}
}
