package workers_test

// osctl's own profiles are registered for every test of this package (the internal ones too:
// they share the test binary).
import _ "github.com/osctl/osctl/pkg/stress/profiles"
