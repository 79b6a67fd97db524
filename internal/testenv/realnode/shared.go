//go:build linux

package realnode

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/osctl/osctl/internal/testenv"
)

// Require skips t under -short, and when the machine lacks what a real node needs: loudly
// outside `make test`, and as a failure in `make test` ($OSCTL_REALNODE_BIN set) and in CI.
func Require(t testing.TB) {
	t.Helper()
	testenv.SkipIfShort(t, "real pods")
	m := Missing()
	if len(m) == 0 {
		return
	}
	msg := "a real node needs: " + strings.Join(m, "; ")
	if testenv.InCI() || os.Getenv(BinEnv) != "" {
		t.Fatalf("MISSING DEPENDENCY: %s", msg)
	}
	t.Skipf("SKIPPED, MISSING DEPENDENCY: %s", msg)
}

var (
	sharedOnce sync.Once
	shared     *Cluster
	sharedErr  error
)

// Shared returns one real-node cluster (one node, images busybox, osctl and, when redis-server
// is installed, Redis) shared by the tests of this test process, started on first use; the
// package's TestMain must be testenv.RunMain, which stops it. Tests use their own namespaces
// (Kube.NewNamespace).
func Shared(t testing.TB) *Cluster {
	t.Helper()
	Require(t)
	bin := testenv.OsctlBinary(t)
	sharedOnce.Do(func() {
		_, err := exec.LookPath("redis-server")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		shared, sharedErr = Start(ctx, Options{Osctl: bin, Redis: err == nil})
		if shared != nil {
			c := shared
			testenv.AtExit(c.Close)
		}
	})
	if sharedErr != nil {
		t.Fatalf("starting a real node: %v", sharedErr)
	}
	return shared
}
