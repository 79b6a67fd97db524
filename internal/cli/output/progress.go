package output

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// barText is about how many columns a progress line takes beside its bar: the description, the
// percentage, the count, the rate and the times.
const barText = 62

// ProgressBar is a bar of total requests on a terminal's stderr (total 0: unknown), or nil when w
// is not a terminal: no progress bars in pipes. Its line fits the terminal's width.
func ProgressBar(w io.Writer, terminal bool, total int64) *progressbar.ProgressBar {
	if !terminal {
		return nil
	}
	if total == 0 {
		total = -1
	}
	opts := []progressbar.Option{progressbar.OptionSetWriter(w), progressbar.OptionShowCount(), progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("req"), progressbar.OptionThrottle(100 * time.Millisecond), progressbar.OptionSetDescription("requests"),
		progressbar.OptionClearOnFinish()}
	if cols := Width(w); cols > 0 {
		opts = append(opts, progressbar.OptionSetWidth(min(max(cols-barText, 5), 40)))
	}
	return progressbar.NewOptions64(total, opts...)
}
