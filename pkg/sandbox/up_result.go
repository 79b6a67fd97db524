package sandbox

// UpResult is the one JSON line `osctl sandbox up` prints on stdout once every replica answers:
// what a script or a test needs to reach the sandbox it started.
type UpResult struct {
	// Replicas are the base URLs of the replicas, http://127.0.0.1:PORT.
	Replicas []string `json:"replicas"`
	// StateDir is the absolute path of the shared state directory.
	StateDir string `json:"state_dir"`
	// Redis are the Redis masters' URLs (passwords redacted); empty when the mode needs none.
	Redis []string `json:"redis"`
	// Locking is none, local or redlock.
	Locking string `json:"locking"`
	// Queue is local, split or shared.
	Queue string `json:"queue"`
	// Pid is the process id of `osctl sandbox up`.
	Pid int `json:"pid"`
}
