// Package nfscheck grades the NFS mounts of a multi-replica web tier. Its collectors do the I/O:
// they read mountinfo (from a file, /proc, or a pod by exec), the Kubernetes volume behind a
// workload (PVC, PV, StorageClass, CSI driver, an in-cluster NFS-Ganesha server), and probe two
// client mounts for real attribute staleness. Its rules are pure functions of what was collected:
// they find the mount that holds a path and grade its options against the noac requirement
// (docs/nfs.md), grade the volume, and judge what the probe saw. Results are preflight.Results
// whose ids are stable: users ignore rules by id.
//
// Files: parse_*.go parse, rules_*.go grade (no I/O), collect_*.go and probe_*.go do the I/O.
package nfscheck
