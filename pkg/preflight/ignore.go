package preflight

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// IgnoreAnnotation is the annotation that turns rules off for one object:
// `osctl.io/ignore: "rule-id[,rule-id]"`.
const IgnoreAnnotation = "osctl.io/ignore"

// Config is the preflight configuration file (--config): which rules to ignore, and thresholds.
type Config struct {
	// Ignore lists rules to turn off, everywhere or for one subject.
	Ignore []IgnoreRule `json:"ignore,omitempty"`
	// PassengerMaxRatio is the Passenger queue:pool ratio above which a WARN is raised. The
	// default is 20.
	PassengerMaxRatio float64 `json:"passengerMaxRatio,omitempty"`
}

// IgnoreRule turns off rule ID (a trailing ".*" matches every rule with that prefix), for every
// subject or only Subject (as the results print it, for example "deployment/web").
type IgnoreRule struct {
	ID      string `json:"id"`
	Subject string `json:"subject,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// UnmarshalJSON accepts a plain "rule-id" string as well as {id, subject, reason}.
func (r *IgnoreRule) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		r.ID = s
		return nil
	}
	type plain IgnoreRule
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*r = IgnoreRule(p)
	return nil
}

// LoadConfig reads a configuration file (YAML or JSON). Unknown keys are an error, so that a
// misspelt "ignore" does not silently ignore nothing.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %v", err)
	}
	var c Config
	if err := yaml.UnmarshalStrict(b, &c); err != nil {
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "error unmarshaling JSON: while decoding JSON: "))
	}
	for i, r := range c.Ignore {
		if strings.TrimSpace(r.ID) == "" {
			return nil, fmt.Errorf("%s: ignore entry %d has no id", path, i+1)
		}
	}
	return &c, nil
}

// Matches reports whether the rule applies to result res.
func (r IgnoreRule) Matches(res Result) bool {
	if r.Subject != "" && r.Subject != res.Subject {
		return false
	}
	return MatchID(r.ID, res.ID)
}

// MatchID reports whether pattern (an id, or a prefix ending in ".*", or "*") names id.
func MatchID(pattern, id string) bool {
	pattern = strings.TrimSpace(pattern)
	if pattern == "*" {
		return true
	}
	if p, ok := strings.CutSuffix(pattern, ".*"); ok {
		return id == p || strings.HasPrefix(id, p+".")
	}
	return pattern == id
}

// ParseIgnoreAnnotation splits an osctl.io/ignore value into rule ids.
func ParseIgnoreAnnotation(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// ApplyIgnores turns every result matched by the config's ignore list, or by the ignore
// annotation of its subject (annotations maps a subject to its osctl.io/ignore value), into an
// INFO that says it was ignored and why, so an ignored FAIL stays visible but no longer fails.
func ApplyIgnores(rs []Result, c *Config, annotations map[string]string) []Result {
	out := make([]Result, len(rs))
	for i, r := range rs {
		out[i] = r
		if r.Status == Pass || r.Status == Info {
			continue
		}
		why := ""
		if c != nil {
			for _, ir := range c.Ignore {
				if ir.Matches(r) {
					why = "ignored by the config file"
					if ir.Reason != "" {
						why += " (" + ir.Reason + ")"
					}
					break
				}
			}
		}
		if why == "" && annotations != nil {
			for _, id := range ParseIgnoreAnnotation(annotations[r.Subject]) {
				if MatchID(id, r.ID) {
					why = "ignored by annotation " + IgnoreAnnotation + " on " + r.Subject
					break
				}
			}
		}
		if why != "" {
			out[i].Message = fmt.Sprintf("%s: was %s: %s", why, strings.ToUpper(string(r.Status)), r.Message)
			out[i].Status = Info
		}
	}
	return out
}
