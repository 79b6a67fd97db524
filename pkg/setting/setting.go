// Package setting lets osctl's libraries say which of their settings is wrong without knowing
// how a program exposes them. A library returns an *Error naming the setting by its Go name
// ("Steps", "Plan.Hold", "Config.Concurrency"); the osctl command line maps those names to its
// flags (internal/cli/cmdutil.Flags), so that only the command line names a flag.
package setting

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Error says that one setting of a library call is wrong.
type Error struct {
	// Name is the setting's Go name, as the library's API spells it ("Steps", "Plan.Hold").
	Name string
	// Reason says what is wrong and what to give instead: the value given first when it helps
	// (`"1,4,2": steps must increase (2 after 4)`), never the setting's own name. Another setting
	// it names is written {Name} ({Duration}), so that each reader sees the name it knows.
	Reason string
}

// Errorf returns an *Error for the setting name with the formatted reason.
func Errorf(name, format string, a ...any) *Error {
	return &Error{Name: name, Reason: fmt.Sprintf(format, a...)}
}

// Error names the setting and the other settings its reason refers to by their Go names.
func (e *Error) Error() string { return e.Render(func(name string) string { return name }) }

// Render returns the message with every setting named by as: as(e.Name) first, then the
// reason, its {Name} references replaced by as(Name).
func (e *Error) Render(as func(name string) string) string {
	reason := Refs(e.Reason, as)
	if reason == "" {
		return as(e.Name)
	}
	sep := " "
	if strings.HasPrefix(reason, ":") {
		sep = ""
	}
	return as(e.Name) + sep + reason
}

// Refs returns text with every {Name} reference to a setting replaced by as(Name): free text
// (a refusal's reason, a notice) names settings the way an *Error's reason does.
func Refs(text string, as func(name string) string) string {
	return refRE.ReplaceAllStringFunc(text, func(m string) string { return as(m[1 : len(m)-1]) })
}

var refRE = regexp.MustCompile(`\{[A-Z][A-Za-z0-9.]*\}`)

// As returns the *Error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
