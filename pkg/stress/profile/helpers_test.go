package profile

import (
	"testing"

	"github.com/osctl/osctl/internal/testenv/sandboxenv"
	"github.com/osctl/osctl/pkg/sandbox"
)

const jobsToken = "profile-test-token-91c2"

// jobAPI starts an in-process sandbox job API (one replica) and returns its URL.
func jobAPI(t *testing.T, cfg sandbox.Config) string { return sandboxenv.JobAPI(t, cfg, jobsToken) }
