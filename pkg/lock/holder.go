package lock

import (
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// holderPrefix starts every holder value osctl writes, so that `osctl locks inspect` can tell its
// locks from redlock-rb's (a UUID) and redsync's (base64 of 16 random bytes).
const holderPrefix = "osctl:v1:"

// Holder says who holds a lock. Its String form is the lock's value: one opaque string for
// compare-and-delete that an operator can still read.
type Holder struct {
	Host   string `json:"host"`   // pod name (HOSTNAME in a pod) or host name
	PID    int    `json:"pid"`    // process id
	Random string `json:"random"` // random part that makes every acquisition's value unique
}

// String returns the holder value: osctl:v1:<host>:<pid>:<random>.
func (h Holder) String() string {
	return holderPrefix + h.Host + ":" + strconv.Itoa(h.PID) + ":" + h.Random
}

// NewHolder returns a holder for this process with a fresh 80-bit random part. host defaults to
// $POD_NAME, then $HOSTNAME, then os.Hostname.
func NewHolder(host string) Holder {
	if host == "" {
		host = DefaultHost()
	}
	host = strings.ReplaceAll(host, ":", "_")
	return Holder{Host: host, PID: os.Getpid(), Random: randomPart()}
}

// DefaultHost is the name that identifies this process's pod or machine.
func DefaultHost() string {
	for _, env := range []string{"POD_NAME", "HOSTNAME"} {
		if v := os.Getenv(env); v != "" {
			return v
		}
	}
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
}

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func randomPart() string {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err))
	}
	return strings.ToLower(b32.EncodeToString(b))
}

// ParseHolder parses a value written by NewHolder().String(). ok is false for any other value.
func ParseHolder(v string) (h Holder, ok bool) {
	rest, found := strings.CutPrefix(v, holderPrefix)
	if !found {
		return Holder{}, false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 || parts[0] == "" || parts[2] == "" {
		return Holder{}, false
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid < 0 {
		return Holder{}, false
	}
	return Holder{Host: parts[0], PID: pid, Random: parts[2]}, true
}
