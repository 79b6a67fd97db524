package stress

import (
	"bytes"
	"encoding/json"
	"time"
)

// Options are a profile's own settings, beside Config's shared ones: openstudio.Options,
// jobs.Options, httpload.Options, each with an OptionsOf that reads them from a Config. A nil
// Options takes the profile's defaults (Profile.Defaults); a profile with no settings of its own
// needs none.
type Options interface {
	// Profile names the profile the options are for (Config.Profile).
	Profile() string
}

// An OptionsDecoder is a Profile with Options of its own: it decodes them from their JSON (a
// Config as it travels to load workers).
type OptionsDecoder interface {
	DecodeOptions(data []byte) (Options, error)
}

// An AfterLoader is Options whose profile goes on waiting on the target after the load (a settle
// step, jobs followed to their end): AfterLoad bounds that wait. The run's work after the load,
// and the load workers' pods, get that long beyond their own margins.
type AfterLoader interface {
	AfterLoad() time.Duration
}

// A StartAllower is Options that let starts (a start launches simulations on a real server) go
// to targets that do not say they are the sandbox: pods taken in during the load are marked so in
// the history.
type StartAllower interface {
	StartAllowed() bool
}

// AfterLoad is how long the profile's options say it may wait after the load (an AfterLoader's;
// 0 for others).
func (c Config) AfterLoad() time.Duration {
	if a, ok := c.Options.(AfterLoader); ok {
		return a.AfterLoad()
	}
	return 0
}

// startAllowed says whether the options let starts go to targets that are not the sandbox.
func (c Config) startAllowed() bool {
	s, ok := c.Options.(StartAllower)
	return ok && s.StartAllowed()
}

// checkOptions says what is wrong with c.Options before the profile's own Check: options of
// another profile.
func (c Config) checkOptions() error {
	if c.Options != nil && c.Options.Profile() != c.Profile {
		return fieldErr("Profile", "%s: the options given are the %s profile's", c.Profile, c.Options.Profile())
	}
	return nil
}

// DecodeOptions decodes the JSON of the named profile's Options (a Config as it travels):
// null or nothing is nil. An unknown profile, or options for one that has none, is an error.
func DecodeOptions(profile string, data []byte) (Options, error) {
	p, ok := ProfileOf(profile)
	if !ok {
		return nil, unknownProfile(profile)
	}
	if len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	d, ok := p.(OptionsDecoder)
	if !ok {
		return nil, configErr("the %s profile has no options of its own, and was given %s", profile, data)
	}
	o, err := d.DecodeOptions(data)
	if err != nil {
		return nil, configErr("the %s profile's options: %v", profile, err)
	}
	return o, nil
}

// DecodeOptionsAs reads data as a T: a profile's OptionsDecoder whose options are one JSON
// object is DecodeOptionsAs[Options](data).
func DecodeOptionsAs[T Options](data []byte) (Options, error) {
	var o T
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, err
	}
	return o, nil
}

// OptionsAs returns c's Options as a T (given as a T or a non-nil *T), else def: a profile's
// OptionsOf is OptionsAs(c, DefaultOptions()).
func OptionsAs[T Options](c Config, def T) T {
	if o, ok := c.Options.(T); ok {
		return o
	}
	if o, ok := any(c.Options).(*T); ok && o != nil {
		return *o
	}
	return def
}
