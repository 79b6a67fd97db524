package jobs

import "github.com/osctl/osctl/pkg/stress/cleanup"

// The profile's cleanup plan, as stress.Register gives it to cleanup, for the tests that plan
// through cleanup.ForHistory.
func init() { cleanup.Register(Profile{}.Kind().Name, Profile{}.Cleanup()) }
