package cleanup_test

// osctl's own profiles, whose cleanup plans they register, for every test of this package (the
// internal ones too: they share the test binary).
import _ "github.com/osctl/osctl/pkg/stress/profiles"
