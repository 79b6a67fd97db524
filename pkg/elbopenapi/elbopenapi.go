// Package elbopenapi holds what osctl takes from elb-openapi's own settings, for every part of
// osctl that must agree with it: the jobs stress profile, the sandbox's job API that plays the
// service, and the tests' real service. It imports nothing of osctl.
package elbopenapi

import "time"

// DefaultDispatchInterval is elb-openapi's default ELB_OPENAPI_DISPATCH_INTERVAL_SECONDS (5):
// the dispatcher's tick, on which (besides a submit, or a submit thread's exit) a queued job is
// claimed. A correct replica may leave a slot free this long.
const DefaultDispatchInterval = 5 * time.Second
