// Package proc holds what the project's process supervisors share on Linux: a child started as
// the leader of its own process group, signalled and ended as a group, and a process's state and
// parent read from /proc.
package proc
