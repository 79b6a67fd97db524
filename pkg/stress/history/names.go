package history

import (
	"fmt"
	"strings"
)

// CheckName says why an id read from a history or a server cannot name a directory under the
// state directory (nil when it can): it must be one plain path element, so that joining it onto
// the volume root never leaves it. Empty, ".", "..", and ids with a slash, a backslash or a control
// character (NUL, a line break) are refused.
func CheckName(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("an empty id")
	case id == "." || id == "..":
		return fmt.Errorf("id %q names a directory, not an object", id)
	case strings.ContainsAny(id, "/\\"):
		return fmt.Errorf("id %q is not a plain name (it holds a path separator): joined onto the state directory it would leave it", id)
	case strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return fmt.Errorf("id %q holds a control character", id)
	}
	return nil
}
