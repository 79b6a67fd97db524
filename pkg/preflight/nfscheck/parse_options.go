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
			o.set(k, v)
		}
	}
	return o
}

// set applies one option k (with its value v, when it has one), as the kernel does.
func (o *Options) set(k, v string) {
	seconds := map[string][]*int{
		"actimeo":  {&o.ACRegMin, &o.ACRegMax, &o.ACDirMin, &o.ACDirMax},
		"acregmin": {&o.ACRegMin},
		"acregmax": {&o.ACRegMax},
		"acdirmin": {&o.ACDirMin},
		"acdirmax": {&o.ACDirMax},
	}
	flags := map[string]struct {
		fields []*bool
		on     bool
	}{
		"ac":      {[]*bool{&o.Noac}, false},
		"sync":    {[]*bool{&o.Sync}, true},
		"async":   {[]*bool{&o.Sync}, false},
		"nocto":   {[]*bool{&o.Nocto}, true},
		"cto":     {[]*bool{&o.Nocto}, false},
		"soft":    {[]*bool{&o.Soft}, true},
		"softerr": {[]*bool{&o.Softerr}, true},
		"hard":    {[]*bool{&o.Soft, &o.Softerr}, false},
		"nolock":  {[]*bool{&o.Nolock}, true},
		"lock":    {[]*bool{&o.Nolock}, false},
	}
	words := map[string]*string{"vers": &o.Version, "nfsvers": &o.Version, "lookupcache": &o.Lookupcache, "local_lock": &o.LocalLock}
	switch fields, f, w := seconds[k], flags[k], words[k]; {
	case k == "v3":
		o.Version = "3"
	case k == "v4":
		o.Version = "4"
	case k == "noac":
		o.Noac, o.Sync = true, true
		o.ACRegMin, o.ACRegMax, o.ACDirMin, o.ACDirMax = 0, 0, 0, 0
	case fields != nil:
		if n, err := strconv.Atoi(v); err == nil {
			for _, p := range fields {
				*p = n
			}
		}
	case f.fields != nil:
		for _, p := range f.fields {
			*p = f.on
		}
	case w != nil:
		*w = v
	}
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
