package rollouttest

import (
	"os/exec"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

func execCommand(name string, args ...string) *exec.Cmd { return exec.Command(name, args...) }

func isAlreadyExists(err error) bool { return apierrors.IsAlreadyExists(err) }
