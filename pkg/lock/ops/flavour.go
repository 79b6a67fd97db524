package ops

import (
	"encoding/base64"
	"strings"

	"github.com/osctl/osctl/pkg/lock"
)

// FlavourOf says which library most likely wrote value; for osctl values it also returns the
// parsed holder.
func FlavourOf(value string) (Flavour, *lock.Holder) {
	if h, ok := lock.ParseHolder(value); ok {
		return FlavourOsctl, &h
	}
	if isUUID(value) {
		return FlavourRedlockRb, nil
	}
	if len(value) == 24 && strings.HasSuffix(value, "==") {
		var b [18]byte
		if n, err := base64.StdEncoding.Decode(b[:], []byte(value)); err == nil && n == 16 {
			return FlavourRedsync, nil
		}
	}
	return FlavourUnknown, nil
}

// isUUID reports whether s is a canonical 8-4-4-4-12 hex UUID, as Ruby's SecureRandom.uuid writes.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// ParseKey returns the analysis id and step of a lock key: redlock:<id>:<step> (the seed's
// scheme, see lock.ParseKey) or analysis:<id>:<step> (upstream's analysis:<id>:init_lock lease).
// Both are empty for keys of another shape.
func ParseKey(key string) (analysisID, step string) {
	if id, st, ok := lock.ParseKey(key); ok {
		return id, st
	}
	rest, ok := strings.CutPrefix(key, "analysis:")
	if !ok {
		return "", ""
	}
	i := strings.LastIndexByte(rest, ':')
	if i <= 0 || i == len(rest)-1 {
		return "", ""
	}
	return rest[:i], rest[i+1:]
}
