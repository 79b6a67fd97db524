// Package profiles registers osctl's own stress profiles (openstudio, the default, then jobs and
// http) with pkg/stress: the one file that imports them. A program that runs or judges stress
// tests imports it; a profile of its own it registers itself (stress.Register).
package profiles

import (
	"github.com/osctl/osctl/pkg/stress"
	"github.com/osctl/osctl/pkg/stress/httpload"
	"github.com/osctl/osctl/pkg/stress/jobs"
	"github.com/osctl/osctl/pkg/stress/openstudio"
)

func init() {
	stress.Register(openstudio.Profile{})
	stress.Register(jobs.Profile{})
	stress.Register(httpload.Profile{})
}
