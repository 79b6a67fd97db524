package stress

import (
	"slices"
	"strings"
	"sync"

	"github.com/osctl/osctl/pkg/stress/cleanup"
	"github.com/osctl/osctl/pkg/stress/history"
	"github.com/osctl/osctl/pkg/stress/report"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]Profile{}
	order      []string // the names in the order they were first registered
)

// Register makes p runnable by its name (Config.Profile) and judgeable offline: its
// capabilities go to history (history.RegisterProfile), its cleanup, if any, to cleanup, and its
// part of the report, if any, to report (to read its reports back). A
// later registration of a name replaces the earlier one. pkg/stress/profiles registers osctl's
// own.
func Register(p Profile) {
	k := p.Kind()
	registryMu.Lock()
	if _, ok := registry[k.Name]; !ok {
		order = append(order, k.Name)
	}
	registry[k.Name] = p
	registryMu.Unlock()
	history.RegisterProfile(k)
	if c, ok := p.(Cleaner); ok {
		cleanup.Register(k.Name, c.Cleanup())
	}
	if r, ok := p.(Reporter); ok {
		report.RegisterPart(k.Name, r.NewPart)
	}
}

// ProfileOf returns the registered profile of that name.
func ProfileOf(name string) (Profile, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	p, ok := registry[name]
	return p, ok
}

// ProfileNames are the registered profiles' names, in the order they were registered.
func ProfileNames() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return slices.Clone(order)
}

// unknownProfile says that no profile of that name is registered, and which are.
func unknownProfile(name string) error {
	names := ProfileNames()
	if len(names) == 0 {
		return fieldErr("Profile", "%q: no profile is registered (a program that runs stress registers them: import pkg/stress/profiles)", name)
	}
	last := len(names) - 1
	if last == 0 {
		return fieldErr("Profile", "%q: use %s", name, names[0])
	}
	return fieldErr("Profile", "%q: use %s or %s", name, strings.Join(names[:last], ", "), names[last])
}
