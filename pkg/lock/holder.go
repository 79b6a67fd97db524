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
	Host   string `json:"host"`   // pod name (POD_NAME or HOSTNAME in a pod) or host name
	PID    int    `json:"pid"`    // process id
	Random string `json:"random"` // random part that makes every acquisition's value unique
	// Namespace is the Kubernetes namespace of the pod named by Host, recorded only when Host is
	// that pod's name from the downward API ($POD_NAME) and $POD_NAMESPACE is set. Empty for a
	// host that is not known to be a pod, and in values written before it was recorded: then
	// nobody can tell from the value where (or whether) its holder runs.
	Namespace string `json:"namespace,omitempty"`
}

// String returns the holder value: osctl:v1:<host>:<pid>:<random>, followed by :<namespace> when
// the namespace is known. Readers that predate the namespace do not parse the longer form, so
// they never judge its holder gone.
func (h Holder) String() string {
	s := holderPrefix + h.Host + ":" + strconv.Itoa(h.PID) + ":" + h.Random
	if h.Namespace != "" {
		s += ":" + h.Namespace
	}
	return s
}

// NewHolder returns a holder for this process with a fresh 80-bit random part. host defaults to
// $POD_NAME, then $HOSTNAME, then os.Hostname. The namespace is DefaultNamespace(host).
func NewHolder(host string) Holder {
	if host == "" {
		host = DefaultHost()
	}
	host = strings.ReplaceAll(host, ":", "_")
	return Holder{Host: host, PID: os.Getpid(), Random: randomPart(), Namespace: DefaultNamespace(host)}
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

// DefaultNamespace returns $POD_NAMESPACE when host is this pod's own name as the downward API
// gives it ($POD_NAME) and the namespace is a valid one, else "". HOSTNAME alone is not enough: a
// pod's spec.hostname may differ from its name, and a VM's host name names no pod.
func DefaultNamespace(host string) string {
	pod, ns := os.Getenv("POD_NAME"), os.Getenv("POD_NAMESPACE")
	if pod == "" || strings.ReplaceAll(pod, ":", "_") != host || !IsNamespaceName(ns) {
		return ""
	}
	return ns
}

// IsNamespaceName reports whether s is a valid Kubernetes namespace name (an RFC 1123 label:
// at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit).
func IsNamespaceName(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-' && i > 0 && i < len(s)-1:
		default:
			return false
		}
	}
	return true
}

// IsPodName reports whether s can be a Kubernetes pod name (an RFC 1123 subdomain: at most 253
// lower-case letters, digits, '-' and '.', each dot-separated part starting and ending with a
// letter or digit).
func IsPodName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if !IsNamespaceName(part) {
			return false
		}
	}
	return true
}

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func randomPart() string {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("crypto/rand: %v", err))
	}
	return strings.ToLower(b32.EncodeToString(b))
}

// ParseHolder parses a value written by NewHolder().String(), with or without a namespace. ok is
// false for any other value, including one whose namespace part is not a valid namespace name.
func ParseHolder(v string) (h Holder, ok bool) {
	rest, found := strings.CutPrefix(v, holderPrefix)
	if !found {
		return Holder{}, false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 && len(parts) != 4 || parts[0] == "" || parts[2] == "" {
		return Holder{}, false
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid < 0 {
		return Holder{}, false
	}
	h = Holder{Host: parts[0], PID: pid, Random: parts[2]}
	if len(parts) == 4 {
		if !IsNamespaceName(parts[3]) {
			return Holder{}, false
		}
		h.Namespace = parts[3]
	}
	return h, true
}
