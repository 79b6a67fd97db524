// Package acceptance holds the tests that run `osctl stress`, the binary as a user runs it (no
// -race), where a unit below it cannot stand in:
//   - the seed's acceptance: 10,000 concurrent POSTs in flight against sandbox processes of 3
//     and 5 replicas, racy without locking and clean with Redlock, the offline judge agreeing;
//   - real pods on a real kubelet (internal/testenv/realnode: containerd, runc and the CNI
//     bridge in namespaces of their own, the image of this checkout's osctl): the main job on a
//     web tier of real pods, --target-pods reaching and following them, a real pod killed by
//     --nemesis, the state read through a real exec, and --concurrency auto counting the pods a
//     real kubelet calls Ready.
//
// They were internal/cli/stress's, with the same assertions, and run one at a time as they did
// there: a real pod's readiness probe and a killed pod's jobs are at the mercy of a 10,000-request
// load beside them. They are the top tier of the stress tests (docs/architecture.md):
// internal/cli/stress keeps the binary's flags, exit codes and output at small loads, and
// pkg/stress the pipeline in-process. The package has no code of its own; see its _test.go files.
package acceptance
