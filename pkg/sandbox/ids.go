package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// maxIDLen bounds an id (it becomes a directory name).
const maxIDLen = 200

// newObjectID returns 24 hex digits, the shape of a MongoDB ObjectId.
func newObjectID() string { return randomHex(12) }

// newUUID returns a random (version 4) UUID string.
func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// checkID accepts any string that is safe as one path component: not empty, no '/', '\\' or
// NUL, not "." or "..", no "..", not starting with '.' (names the app generates start with one).
func checkID(kind, id string) error {
	switch {
	case id == "":
		return unprocessable("%s id is empty", kind)
	case len(id) > maxIDLen:
		return unprocessable("%s id is longer than %d bytes", kind, maxIDLen)
	case strings.ContainsAny(id, "/\\\x00"), strings.Contains(id, ".."), strings.HasPrefix(id, "."):
		return unprocessable("%s id %q is not path-safe: no '/', '\\', '..' or leading '.'", kind, id)
	}
	for _, r := range id {
		if r < 0x20 || r == 0x7f {
			return unprocessable("%s id %q holds a control character", kind, id)
		}
	}
	return nil
}

// ignoredName reports whether a name in a judged directory is one the app generates itself (the
// stress detector's ignore list): .osctl-*, analysis_zip.lock, analysis_zip.receipt, .nfs*.
func ignoredName(name string) bool {
	return strings.HasPrefix(name, ".osctl-") || strings.HasPrefix(name, ".nfs") ||
		name == lockFileName || name == receiptFileName
}
