// Package cmdutil holds what every osctl command shares: the Factory of clients, the IO streams,
// the error kinds that decide exit codes, and the confirmation prompt.
package cmdutil

import (
	"errors"
	"fmt"
)

// Exit codes, as the README's table lists them (with ExitInterrupted, 130). Main is the only
// place that turns them into os.Exit.
const (
	ExitOK      = 0 // did its job, found nothing wrong
	ExitProblem = 1 // did its job, found a problem
	ExitError   = 2 // could not do its job
)

// FoundError reports that a command did its job and found a problem (exit 1). Its message is
// printed to stderr unless it is empty (the command already said what it found).
type FoundError struct{ Msg string }

func (e *FoundError) Error() string { return e.Msg }

// Found returns an error that makes the command exit 1 with the given message.
func Found(format string, a ...any) error { return &FoundError{Msg: fmt.Sprintf(format, a...)} }

// ErrSilentFound makes the command exit 1 without printing anything more.
var ErrSilentFound = &FoundError{}

// UsageError is a bad flag or argument (exit 2); Main adds a hint to see --help.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usage returns a usage error (exit 2).
func Usage(format string, a ...any) error { return &UsageError{Err: fmt.Errorf(format, a...)} }

// ExitCode maps an error returned by a command to the process exit code.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var f *FoundError
	if errors.As(err, &f) {
		return ExitProblem
	}
	return ExitError
}
