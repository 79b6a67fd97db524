package output

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// ProgressBar is a bar of total requests on a terminal's stderr (total 0: unknown), or nil when w
// is not a terminal: no progress bars in pipes.
func ProgressBar(w io.Writer, terminal bool, total int64) *progressbar.ProgressBar {
	if !terminal {
		return nil
	}
	if total == 0 {
		total = -1
	}
	return progressbar.NewOptions64(total, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(), progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("req"), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionSetDescription("requests"),
		progressbar.OptionClearOnFinish())
}
