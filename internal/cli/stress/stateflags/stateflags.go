// Package stateflags are the flags that say where a stress run's part of the volume is read
// (osctl stress, osctl stress judge).
package stateflags

import (
	"github.com/spf13/cobra"

	"github.com/osctl/osctl/internal/cli/cmdutil"
	"github.com/osctl/osctl/pkg/stress/snapshot"
)

// Flags say where the run's part of the volume is read: a directory here, or one exec in a
// pod that mounts it.
type Flags struct{ Dir, Pod, Container, Mount string }

// Add binds the flags (--state-pod and its companions only with pod).
func (s *Flags) Add(cmd *cobra.Command, pod bool) {
	fl := cmd.Flags()
	fl.StringVar(&s.Dir, "state-dir", "", "openstudio: the shared volume's root on this machine (the sandbox's state dir, or the NFS mount)")
	if pod {
		fl.StringVar(&s.Pod, "state-pod", "", "openstudio: read the state through one exec in this pod (namespace from -n), which mounts the volume")
		fl.StringVar(&s.Container, "state-container", "", "container of --state-pod (default: its kubectl.kubernetes.io/default-container, else its first)")
		fl.StringVar(&s.Mount, "state-mount", "/mnt/openstudio", "the volume's mount path inside --state-pod")
	}
}

// Validate refuses two places at once.
func (s *Flags) Validate() error {
	if s.Dir != "" && s.Pod != "" {
		return cmdutil.Usage("--state-dir and --state-pod both say where the state is: pass one")
	}
	return nil
}

// Reader is the state reader the flags name (nil: none).
func (s *Flags) Reader(f *cmdutil.Factory) (snapshot.Reader, error) {
	switch {
	case s.Dir != "":
		return snapshot.Local{Root: s.Dir}, nil
	case s.Pod != "":
		kc, err := f.Kube()
		if err != nil {
			return nil, err
		}
		return snapshot.Pod{REST: kc.REST, Clientset: kc.Clientset, Namespace: kc.Namespace, Name: s.Pod, Container: s.Container, Mount: s.Mount}, nil
	}
	return nil, nil
}
