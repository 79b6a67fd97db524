package history

import "sync"

// Profile is one workload of osctl stress (--profile) and what it implies for every stage after
// the load: the record, the verdict, the report and the cleanup ask it instead of comparing
// names. The built-in profiles are listed in Profiles; another is registered by stress.Register
// (RegisterProfile), with its load, stage, rules and plans in its own package.
type Profile struct {
	// Name is the --profile value, and the header's Profile.
	Name string
	// Probes: the targets are servers that say what they are (GET /status); the http profile's
	// are the routes themselves, and its run may be bounded by a duration alone.
	Probes bool
	// Setup: the load needs objects created first (a project, analyses and their seeds).
	Setup bool
	// Records: every load request is recorded, and the verdict is judged on the records, which
	// are kept in memory. The http profile's verdict is the attacker's counts: it keeps no
	// records, live or offline (with a history file they are written and folded as they come).
	Records bool
	// Files: the run's objects are files on the shared volume: the run settles on them, reads
	// them, and the judge checks them against the uploads.
	Files bool
	// Jobs: the target runs the run's jobs, which are followed until they end; the judge checks
	// the service-wide ceiling and stranded jobs.
	Jobs bool
	// Passenger: the targets are OpenStudio's web pods, whose entrypoint gives Passenger's
	// MAX_POOL and MAX_REQUESTS defaults to a pod that sets neither (the tier's capacity).
	Passenger bool
	// ResqueFailures: the target's background jobs are Resque jobs, whose failures a real server
	// keeps in Resque's failed list in its Redis (read with the app's Redis, {ResqueRedis}).
	ResqueFailures bool
	// Ops are the load operations the report always lists, in this order (others as they come).
	Ops []string
	// Findings are the finding kinds the judge can give (one JUnit case each).
	Findings []string
}

// The profiles.
var (
	OpenStudio = Profile{Name: "openstudio", Probes: true, Setup: true, Records: true, Files: true, Passenger: true, ResqueFailures: true,
		Ops:      []string{"upload", "start", "data_point", "upload_file"},
		Findings: []string{"lost", "duplicate", "torn", "mixed", "phantom", "failed-extraction"}}
	Jobs = Profile{Name: "jobs", Probes: true, Records: true, Jobs: true,
		Findings: []string{"ceiling", "stranded", "invisible", "lost"}}
	HTTP = Profile{Name: "http"}
)

// Profiles are the built-in profiles, the default first; RegisterProfile adds others.
var Profiles = []Profile{OpenStudio, Jobs, HTTP}

var (
	registeredMu sync.RWMutex
	registered   = map[string]Profile{}
)

// RegisterProfile makes p known by its name to every stage that asks (KindOf): a profile
// defined outside osctl (stress.Register calls it). A later registration of a name replaces the
// earlier one; a built-in profile's name is the built-in's.
func RegisterProfile(p Profile) {
	registeredMu.Lock()
	defer registeredMu.Unlock()
	registered[p.Name] = p
}

// ProfileNamed returns the profile of that name.
func ProfileNamed(name string) (Profile, bool) {
	for _, p := range Profiles {
		if p.Name == name {
			return p, true
		}
	}
	registeredMu.RLock()
	defer registeredMu.RUnlock()
	if p, ok := registered[name]; ok {
		return p, true
	}
	return Profile{Name: name}, false
}

// KindOf is the profile of that name; an unknown name is a profile with no capabilities (nothing
// to judge but counts). Config.Check refuses unknown names before a run.
func KindOf(name string) Profile {
	p, _ := ProfileNamed(name)
	return p
}

// Kind is the run's profile.
func (h Header) Kind() Profile { return KindOf(h.Profile) }
