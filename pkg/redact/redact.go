// Package redact removes credentials from anything osctl prints or logs: passwords in Redis
// URLs, bearer tokens, and secrets that were read from files or Kubernetes Secrets.
package redact

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Mask is what replaces a secret.
const Mask = "xxxxx"

// URL returns u with any password replaced by Mask. A string that does not parse as a URL is
// scrubbed with a pattern instead, so a malformed URL in an error message leaks nothing either.
func URL(u string) string {
	p, err := url.Parse(u)
	if err == nil && p.RawQuery != "" {
		// go-redis's failover URLs may carry a password in the query (password=...).
		if q, qerr := url.ParseQuery(p.RawQuery); qerr == nil && q.Has("password") {
			q.Set("password", Mask)
			p.RawQuery = q.Encode()
			u = p.String()
		} else if qerr != nil && strings.Contains(strings.ToLower(p.RawQuery), "password") {
			p.RawQuery = "password=" + Mask
			u = p.String()
		}
	}
	if err == nil && p.User != nil {
		if _, has := p.User.Password(); has {
			p.User = url.UserPassword(p.User.Username(), Mask)
			return strings.Replace(p.String(), url.QueryEscape(Mask), Mask, 1)
		}
	}
	if err != nil || strings.Contains(u, "@") {
		// A URL that did not parse, or whose '@' url.Parse did not take as the end of a
		// user:password (a '#', '/' or space in it): mask from the first "scheme://user:" up to
		// the last '@'. This may mask more than the password, never less.
		if m := badURLRE.ReplaceAllString(u, "${1}"+Mask+"@"); m != u || err != nil {
			return m
		}
	}
	return p.String()
}

var userinfoRE = regexp.MustCompile(`(\w*://[^:/@\s]*:)[^@\s]*@`)

var badURLRE = regexp.MustCompile(`(?s)(\w*://[^:]*:).*@`)

var bearerRE = regexp.MustCompile(`(?i)(bearer\s+|token[=:]\s*|password[=:]\s*|requirepass\s+)["']?[^\s"',]+`)

// Secrets keeps secret values seen at run time (a password from a file or a Secret) so that
// String can remove them from any text, for example an error message from a library.
type Secrets struct {
	mu   sync.RWMutex
	vals []string
}

// Add remembers s as a secret. Empty strings and very short ones (which would mangle ordinary
// text) are ignored.
func (s *Secrets) Add(v string) {
	if len(v) < 3 {
		return
	}
	s.mu.Lock()
	s.vals = append(s.vals, v)
	s.mu.Unlock()
}

// String returns text with every known secret, URL password and bearer token masked.
func (s *Secrets) String(text string) string {
	text = userinfoRE.ReplaceAllString(text, "${1}"+Mask+"@")
	text = bearerRE.ReplaceAllString(text, "${1}"+Mask)
	if s == nil {
		return text
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.vals {
		text = strings.ReplaceAll(text, v, Mask)
	}
	return text
}

// Text masks URL passwords and bearer tokens in free text.
func Text(text string) string { return (*Secrets)(nil).String(text) }
