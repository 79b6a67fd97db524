package rollout

import (
	"regexp"

	"github.com/osctl/osctl/pkg/redact"
)

// Beyond what redact.Text masks (URL passwords, token=, password=, bearer tokens), the forms a
// gate's output or error may echo from a command line: curl's -u user:pass, a header such as
// X-Api-Key: or Authorization: Basic, mysql's -pSECRET, --token X, and environment assignments
// such as APP_SECRET_KEY=.
var (
	maskUserPass   = regexp.MustCompile(`(^|\s)(-u|--user|--proxy-user)(\s+|=)([^\s:]*):\S+`)
	maskScheme     = regexp.MustCompile(`(?i)\b(basic|bearer|digest|negotiate)\s+[A-Za-z0-9+/=._~-]+`)
	maskHeader     = regexp.MustCompile(`(?i)\b([\w-]*(?:api[-_]?key|token|secret|passw(?:or)?d|auth[\w-]*|cookie|credential[\w-]*)\s*:\s*)("[^"]*"|'[^']*'|\S+)`)
	maskFlag       = regexp.MustCompile(`(?i)(^|\s)(--?[\w-]*(?:token|secret|passw(?:or)?d|pass|api[-_]?key|auth|credential)[\w-]*)(\s+|=)("[^"]*"|'[^']*'|[^\s-]\S*)`)
	maskShortP     = regexp.MustCompile(`(^|\s)-p([^\s-]\S*)`)
	maskEnvAssign  = regexp.MustCompile(`(?i)\b([A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|CREDENTIAL)[A-Z0-9_]*=)("[^"]*"|'[^']*'|\S+)`)
	maskRepeatMask = regexp.MustCompile(`(` + redact.Mask + `)+`)
)

// maskOutput masks the credentials a gate's output or error may hold before osctl prints or
// journals it.
func maskOutput(s string) string {
	s = redact.Text(s)
	s = maskUserPass.ReplaceAllString(s, "${1}${2}${3}${4}:"+redact.Mask)
	s = maskScheme.ReplaceAllString(s, "${1} "+redact.Mask)
	s = maskHeader.ReplaceAllString(s, "${1}"+redact.Mask)
	s = maskFlag.ReplaceAllString(s, "${1}${2}${3}"+redact.Mask)
	s = maskShortP.ReplaceAllString(s, "${1}-p"+redact.Mask)
	s = maskEnvAssign.ReplaceAllString(s, "${1}"+redact.Mask)
	return maskRepeatMask.ReplaceAllString(s, redact.Mask)
}
