package shared

import "github.com/osctl/osctl/internal/cli/cmdutil"

// Settings names pkg/stress.Config's fields as osctl stress's flags.
var Settings = cmdutil.Settings{
	"Profile": "--profile", "Targets": "--target", "Requests": "--requests", "Concurrency": "--concurrency",
	"Duration": "--duration", "Rate": "--rate", "Timeout": "--timeout", "MaxErrorRate": "--max-error-rate",
	"Header": "--header", "Analyses": "--analyses", "Project": "--project", "Mix": "--mix",
	"AllowStart": "--allow-start", "SettleTimeout": "--settle-timeout", "SettleQuiet": "--settle-quiet",
	"BackgroundWait": "--background-wait", "Method": "--method", "Body": "--body", "Poll": "--poll",
	"JobTimeout": "--job-timeout", "MaxActive": "--max-active", "Grace": "--grace",
	"DispatchInterval": "--dispatch-interval", "MinAcknowledged": "--min-acknowledged",
	"MinContended": "--min-contended", "Ignore": "--ignore",
	// Not Config's: the state reader, the Deployment and the report file, which the run's
	// reasons and next step also name.
	"StateDir": "--state-dir", "TargetPods": "--target-pods", "StatePod": "--state-pod", "Deployment": "--deployment", "Report": "--report",
	"Nemesis.Redis": "--nemesis-redis", "Nemesis.Seed": "--nemesis-seed", "Rollout.StressReport": "--stress-report",
	"ResqueRedis": "--resque-redis", "ResqueNamespace": "--resque-namespace",
}
