package nfscheck

import (
	"sort"
	"strconv"
	"strings"
)

// Kernel defaults for the attribute cache, in seconds; the kernel omits options equal to them.
const (
	DefaultACRegMin = 3
	DefaultACRegMax = 60
	DefaultACDirMin = 30
	DefaultACDirMax = 60
)

// Options are an NFS mount's options as the kernel reports them, with the defaults filled in.
type Options struct {
	Version     string `json:"version"` // "3", "4", "4.1", "4.2"
	Noac        bool   `json:"noac"`
	Sync        bool   `json:"sync"`
	ACRegMin    int    `json:"acregmin"`
	ACRegMax    int    `json:"acregmax"`
	ACDirMin    int    `json:"acdirmin"`
	ACDirMax    int    `json:"acdirmax"`
	Nocto       bool   `json:"nocto"`
	Soft        bool   `json:"soft"`
	Softerr     bool   `json:"softerr"`
	Lookupcache string `json:"lookupcache,omitempty"` // "", "all", "pos"/"positive", "none"
	Nolock      bool   `json:"nolock"`
	LocalLock   string `json:"localLock,omitempty"` // "", "none", "flock", "posix", "all"
	// Raw is every option as given, in order.
	Raw []string `json:"raw"`
}

// ParseOptions reads NFS options from a comma-separated list (mountinfo super options, a PV's
// mountOptions joined, or mount -o text). fsType "nfs4" implies version 4 when vers is absent.
// Values given as mount -o shorthands (actimeo=N, noac) are expanded the way the kernel does.
func ParseOptions(list []string, fsType string) Options {
	o := Options{ACRegMin: DefaultACRegMin, ACRegMax: DefaultACRegMax, ACDirMin: DefaultACDirMin, ACDirMax: DefaultACDirMax}
	if fsType == "nfs4" {
		o.Version = "4"
	}
	for _, item := range list {
		for _, opt := range strings.Split(item, ",") {
			opt = strings.TrimSpace(opt)
			if opt == "" {
				continue
			}
			o.Raw = append(o.Raw, opt)
			k, v, _ := strings.Cut(opt, "=")
			n, nerr := strconv.Atoi(v)
			switch k {
			case "vers", "nfsvers":
				o.Version = v
			case "v3":
				o.Version = "3"
			case "v4":
				o.Version = "4"
			case "noac":
				o.Noac, o.Sync = true, true
				o.ACRegMin, o.ACRegMax, o.ACDirMin, o.ACDirMax = 0, 0, 0, 0
			case "ac":
				o.Noac = false
			case "sync":
				o.Sync = true
			case "async":
				o.Sync = false
			case "actimeo":
				if nerr == nil {
					o.ACRegMin, o.ACRegMax, o.ACDirMin, o.ACDirMax = n, n, n, n
				}
			case "acregmin":
				if nerr == nil {
					o.ACRegMin = n
				}
			case "acregmax":
				if nerr == nil {
					o.ACRegMax = n
				}
			case "acdirmin":
				if nerr == nil {
					o.ACDirMin = n
				}
			case "acdirmax":
				if nerr == nil {
					o.ACDirMax = n
				}
			case "nocto":
				o.Nocto = true
			case "cto":
				o.Nocto = false
			case "soft":
				o.Soft = true
			case "softerr":
				o.Softerr = true
			case "hard":
				o.Soft, o.Softerr = false, false
			case "lookupcache":
				o.Lookupcache = v
			case "nolock":
				o.Nolock = true
			case "lock":
				o.Nolock = false
			case "local_lock":
				o.LocalLock = v
			}
		}
	}
	return o
}

// MountOptions parses the options of mount m.
func MountOptions(m Mount) Options {
	return ParseOptions([]string{m.Super}, m.FSType)
}

// IsV3 reports whether the options name NFS version 2 or 3 (the NLM lock protocol). A mount
// of type "nfs" without vers is treated as v3 only when the kernel said so.
func (o Options) IsV3() bool { return o.Version == "3" || o.Version == "2" }

// IsV4 reports whether the options name NFS version 4.x.
func (o Options) IsV4() bool { return strings.HasPrefix(o.Version, "4") }

// ActimeoZero reports whether all four attribute-cache timeouts are 0.
func (o Options) ActimeoZero() bool {
	return o.ACRegMin == 0 && o.ACRegMax == 0 && o.ACDirMin == 0 && o.ACDirMax == 0
}

// StaleSeconds is the longest time an attribute can be served from the cache.
func (o Options) StaleSeconds() int {
	return max(o.ACRegMin, o.ACRegMax, o.ACDirMin, o.ACDirMax)
}

// Signature is what two pods must agree on: everything that changes caching, consistency or
// locking, in a stable order.
func (o Options) Signature() string {
	parts := []string{
		"vers=" + o.Version,
		"acregmin=" + strconv.Itoa(o.ACRegMin), "acregmax=" + strconv.Itoa(o.ACRegMax),
		"acdirmin=" + strconv.Itoa(o.ACDirMin), "acdirmax=" + strconv.Itoa(o.ACDirMax),
	}
	flag := func(b bool, s string) {
		if b {
			parts = append(parts, s)
		}
	}
	flag(o.Noac, "noac")
	flag(o.Sync, "sync")
	flag(o.Nocto, "nocto")
	flag(o.Soft, "soft")
	flag(o.Softerr, "softerr")
	flag(o.Nolock, "nolock")
	if o.Lookupcache != "" {
		parts = append(parts, "lookupcache="+o.Lookupcache)
	}
	if o.LocalLock != "" {
		parts = append(parts, "local_lock="+o.LocalLock)
	}
	sort.Strings(parts[5:])
	return strings.Join(parts, ",")
}

// acText shows the four effective attribute-cache timeouts.
func (o Options) acText() string {
	return "acregmin=" + strconv.Itoa(o.ACRegMin) + " acregmax=" + strconv.Itoa(o.ACRegMax) +
		" acdirmin=" + strconv.Itoa(o.ACDirMin) + " acdirmax=" + strconv.Itoa(o.ACDirMax)
}
