package stress_test

import (
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/osctl/osctl/pkg/setting"
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/httpload"
	"github.com/osctl/osctl/pkg/stress/jobs"
	"github.com/osctl/osctl/pkg/stress/openstudio"
	"github.com/osctl/osctl/pkg/stress/profile"
)

// TestOptionsCheckNamesTheField: each profile's invalid option is a *ConfigError whose setting
// error names the option by its Go name (the CLI renders it as its flag), and options of another
// profile are an error about Profile.
func TestOptionsCheckNamesTheField(t *testing.T) {
	target, _ := url.Parse("http://127.0.0.1:1")
	base := stress.DefaultConfig()
	base.Targets = []*url.URL{target}
	os := func(set func(*openstudio.Options)) stress.Config {
		c, o := base, openstudio.DefaultOptions()
		set(&o)
		c.Options = o
		return c
	}
	jb := func(set func(*jobs.Options)) stress.Config {
		c, o := base, jobs.DefaultOptions()
		set(&o)
		c.Profile, c.Options = stress.ProfileJobs, o
		return c
	}
	for _, tc := range []struct {
		field string
		cfg   stress.Config
	}{
		{"BackgroundWait", os(func(o *openstudio.Options) { o.BackgroundWait = -time.Second })},
		{"SettleQuiet", os(func(o *openstudio.Options) { o.SettleQuiet = -time.Second })},
		{"SettleTimeout", os(func(o *openstudio.Options) { o.SettleTimeout = -time.Second })},
		{"Analyses", os(func(o *openstudio.Options) { o.Analyses = -1 })},
		{"Poll", jb(func(o *jobs.Options) { o.Poll = 2 * time.Minute })},
		{"Poll", jb(func(o *jobs.Options) { o.Poll = 0 })},
		{"JobTimeout", jb(func(o *jobs.Options) { o.JobTimeout = 0 })},
		{"DispatchInterval", jb(func(o *jobs.Options) { o.DispatchInterval = 2 * time.Hour })},
		{"Profile", func() stress.Config { c := base; c.Options = jobs.DefaultOptions(); return c }()},
	} {
		err := tc.cfg.Check()
		se, found := setting.As(err)
		if !found || se.Name != tc.field {
			t.Errorf("%s: Check() = %v, want a setting error about %s", tc.field, err, tc.field)
		}
		var ce *stress.ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("%s: %T is not a *ConfigError", tc.field, err)
		}
	}
	for _, p := range []stress.Options{openstudio.DefaultOptions(), jobs.DefaultOptions(), httpload.DefaultOptions()} {
		c := base
		c.Profile, c.Options = p.Profile(), p
		if err := c.Check(); err != nil {
			t.Errorf("the %s profile's DefaultOptions: %v", p.Profile(), err)
		}
	}
}

// TestOptionsDefaults: a Config without Options takes the profile's DefaultOptions (osctl
// stress's flags' defaults); given Options keep their zeros but those that stand for a default
// (the mix, the analyses, the method, the poll and job timeout); a pointer to Options reads the
// same.
func TestOptionsDefaults(t *testing.T) {
	target, _ := url.Parse("http://127.0.0.1:1")
	c := stress.Config{Profile: stress.ProfileOpenStudio, Targets: []*url.URL{target}, Requests: 1000}.WithDefaults()
	want := openstudio.DefaultOptions()
	want.Analyses = 10
	if got := openstudio.OptionsOf(c); got != want {
		t.Errorf("openstudio without options: %+v, want %+v", got, want)
	}
	c.Options = openstudio.Options{Project: "p1"}
	c = c.WithDefaults()
	if got := openstudio.OptionsOf(c); got != (openstudio.Options{Project: "p1", Analyses: 10, Mix: profile.DefaultMix}) {
		t.Errorf("openstudio with a project: %+v, want no settle wait, nothing held back", got)
	}
	c.Options = &openstudio.Options{Analyses: 3}
	if got := openstudio.OptionsOf(c); got.Analyses != 3 {
		t.Errorf("a *openstudio.Options: %+v", got)
	}
	j := stress.Config{Profile: stress.ProfileJobs, Targets: c.Targets, Requests: 1, Options: jobs.Options{DispatchInterval: time.Second}}.WithDefaults()
	if got := jobs.OptionsOf(j); got.Poll != profile.DefaultJobPoll || got.JobTimeout != profile.DefaultJobTimeout || got.DispatchInterval != time.Second {
		t.Errorf("jobs: %+v", got)
	}
	if got := j.AfterLoad(); got != profile.DefaultJobTimeout {
		t.Errorf("jobs AfterLoad %v, want the job timeout", got)
	}
	h := stress.Config{Profile: stress.ProfileHTTP, Targets: c.Targets, Requests: 1, Options: httpload.Options{Body: "x"}}.WithDefaults()
	if got := httpload.OptionsOf(h); got != (httpload.Options{Method: "GET", Body: "x"}) || h.AfterLoad() != 0 {
		t.Errorf("http: %+v, AfterLoad %v", got, h.AfterLoad())
	}
}

// TestDecodeOptions: each profile decodes its own options from their JSON; an unknown profile,
// options the profile cannot read, and options for a profile that has none are one-line errors
// naming the profile.
func TestDecodeOptions(t *testing.T) {
	registerKV.Do(func() { stress.Register(kvProfile{}) })
	for _, o := range []stress.Options{
		openstudio.Options{Analyses: 3, Project: "p", Mix: profile.DefaultMix, AllowStart: true, BackgroundWait: time.Second, SettleTimeout: time.Minute, SettleQuiet: 2 * time.Second},
		jobs.Options{Body: `{"k":"{{nonce}}"}`, Poll: time.Second, JobTimeout: time.Minute, DispatchInterval: 5 * time.Second},
		httpload.Options{Method: "POST", Body: "{{seq}}"},
	} {
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := stress.DecodeOptions(o.Profile(), b)
		if err != nil || got != o {
			t.Errorf("%s: %s decodes as %#v, %v; want %#v", o.Profile(), b, got, err, o)
		}
	}
	if got, err := stress.DecodeOptions(stress.ProfileJobs, []byte("null")); got != nil || err != nil {
		t.Errorf("null: %v, %v; want no options", got, err)
	}
	for _, tc := range []struct{ profile, data, want string }{
		{"nope", `{}`, `"nope": use openstudio, `},
		{stress.ProfileJobs, `{"Poll":"soon"}`, "the jobs profile's options: "},
		{kvName, `{"x":1}`, "the kv profile has no options of its own"},
	} {
		_, err := stress.DecodeOptions(tc.profile, []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s %s: %v, want an error with %q", tc.profile, tc.data, err, tc.want)
		}
	}
}
