// Command elbfake stands in for the four programs elb-openapi shells out to: kubectl (its job
// ConfigMaps, and the Kubernetes Jobs and pods of a BLAST run), azcopy (blobs of one storage
// account), az (a logged-in CLI) and elastic-blast (a run that stays active for a set time, then
// succeeds). It is one binary, linked under the four names; the name it is called by says which
// program it is.
//
// Every replica of the service calls it with the same state directory, as replicas share one
// namespace and one storage account:
//
//	ELB_FAKE_STATE    the state directory (required)
//	ELB_FAKE_LATENCY  how long every call takes before it does anything (a network round trip:
//	                  a real kubectl or azcopy call takes 0.1-0.5 s); a Go duration, default 0
//	ELB_FAKE_RUN      how long an elastic-blast run stays active; a Go duration, default 1s
//	ELB_FAKE_FIRST_UPLOAD_STALL
//	                  extra time the first upload to the storage account takes (one stalled
//	                  transfer): the first submit's query upload stalls, its replay's does not,
//	                  which is how a replay overtakes the submit it repeats; default 0
//
// Each call appends one line to $ELB_FAKE_STATE/calls.log: when it started, how long it took,
// the program and its first arguments.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	os.Exit(run(filepath.Base(os.Args[0]), os.Args[1:]))
}

// exitError is a failed call: what the program prints on stderr, and its exit code.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func fail(format string, a ...any) error { return &exitError{1, fmt.Sprintf(format, a...)} }

func run(prog string, args []string) int {
	began := time.Now()
	st, err := openState()
	if err != nil {
		fmt.Fprintln(os.Stderr, prog+": "+err.Error())
		return 2
	}
	if d := envDuration("ELB_FAKE_LATENCY", 0); d > 0 {
		time.Sleep(d)
	}
	switch prog {
	case "kubectl":
		err = kubectl(st, args)
	case "azcopy":
		err = azcopy(st, args)
	case "az":
		err = az(args)
	case "elastic-blast":
		err = elasticBlast(st, args)
	default:
		err = &exitError{2, "called as " + prog + ": link it as kubectl, azcopy, az or elastic-blast"}
	}
	st.logCall(began, prog, args)
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, err.Error())
	if e, ok := err.(*exitError); ok {
		return e.code
	}
	return 1
}

func envDuration(name string, def time.Duration) time.Duration {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s=%q is not a duration (such as 800ms); using %v\n", name, v, def)
		return def
	}
	return d
}

// az is the Azure CLI of a machine that is logged in: `az account show` names the user, `az
// login` succeeds.
func az(args []string) error {
	switch {
	case len(args) >= 2 && args[0] == "account" && args[1] == "show":
		fmt.Println("osctl-fake-user@example.invalid")
		return nil
	case len(args) >= 1 && args[0] == "login":
		fmt.Println("[]")
		return nil
	}
	return fail("az %s: not faked (only account show and login)", strings.Join(args, " "))
}
