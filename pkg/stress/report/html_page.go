package report

// pageTemplate is the HTML report (WriteHTML). It loads nothing: no script, no font, no image.
const pageTemplate = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>osctl stress {{.R.Run}}: {{.R.Verdict}}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;max-width:76em;margin:1em auto;padding:0 1em;color:#222}
h1{font-size:1.5em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}h3{margin-bottom:.3em}
table{border-collapse:collapse;margin:.4em 0}td,th{border:1px solid #ddd;padding:.15em .5em;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.clean{color:#2e7d32}.races{color:#c62828}.inconclusive{color:#b26a00}
.next{font-weight:600;padding:.4em .6em;background:#f4f7fb;border-left:4px solid #1565c0}
svg.plot{width:100%;max-width:64em;height:auto;display:block;margin:.3em 0}
svg.nodata text{font:13px sans-serif;fill:#666}
figure{margin:.8em 0 1.2em}figcaption{font-size:.9em;color:#444}
svg.timeline{width:100%;height:auto;display:block;font:10px sans-serif}
.lane{fill:#fafafa}.lane.odd{fill:#f0f0f0}.lbl{fill:#333}
rect.ack{fill:#2e7d32}rect.rej{fill:#e69500}rect.amb{fill:#8e24aa}rect.ctx{opacity:.3}rect.named{stroke:#000;stroke-width:.7}
rect.holds{stroke:#000;stroke-width:1.5}.holdmark{fill:#000}
.above{fill:#c62828;opacity:.15}rect.job{fill:#1565c0;opacity:.8}
.read{stroke:#1565c0;stroke-width:1.5;stroke-dasharray:4 3}.rd{fill:#1565c0;text-anchor:middle}
.axis,.tick,.brk{stroke:#555;fill:none}.tk{fill:#555;text-anchor:middle}.tk0{fill:#555}
.legend span{margin-right:1.2em;white-space:nowrap}.sw{display:inline-block;width:1.1em;height:.75em;margin-right:.3em;vertical-align:baseline}
.sw.ack{background:#2e7d32}.sw.rej{background:#e69500}.sw.amb{background:#8e24aa}.sw.ctx{background:#2e7d32;opacity:.35}
.sw.p50{background:#1565c0;height:.2em}.sw.p90{background:#ef6c00;height:.2em}.sw.p99{background:#c62828;height:.2em}
.sw.read{border-left:2px dashed #1565c0;width:0}.sw.above{background:#c62828;opacity:.15}
table.findings{width:100%}table.findings td{font-size:13px}td.obj,td.paths,td.reqs{font:12px monospace}td.obj{word-break:break-all;min-width:9em}td.paths{overflow-wrap:anywhere;min-width:14em;max-width:24em}td.txt{min-width:10em}td.reqs{white-space:nowrap;font-size:11px}summary{color:#1565c0;cursor:pointer}
.nofindings{font-size:1.1em;color:#2e7d32}
</style></head>
<body>
<h1>osctl stress {{.R.Profile}} run {{.R.Run}}: <span class="{{.R.Verdict}}" id="verdict">{{.R.Verdict}}</span>{{if .R.Partial}} (partial){{end}}</h1>
{{with .R.Reasons}}<ul class="reasons">{{range .}}<li>{{redact .}}</li>{{end}}</ul>{{end}}
<p class="next">{{.Next}}</p>
<table class="summary">
<tr><th>targets</th><td>{{range .R.Targets}}{{redact .URL}}{{if .Sandbox}} (sandbox{{if .Replica}} replica {{.Replica}}{{end}}{{if .Locking}}, locking {{.Locking}}{{end}}{{if .Queue}}, queue {{.Queue}}{{end}}){{end}}<br>{{end}}</td></tr>
{{range .Summary}}<tr><th>{{.Measure}}</th><td>{{redact .Value}}</td></tr>
{{end}}<tr><th>time</th><td>{{.R.StartedAt.Format "2006-01-02T15:04:05Z07:00"}} to {{.R.FinishedAt.Format "2006-01-02T15:04:05Z07:00"}}{{if not .R.StateRead.IsZero}}; state read at {{.R.StateRead.Format "15:04:05.000"}}{{end}}</td></tr>
</table>
{{with .R.Faults}}<h2 id="faults" data-faults="{{len .}}">Faults ({{len .}})</h2>
<table class="faults"><tr><th>fault</th><th>target</th><th>outcome</th><th>injected</th><th>in flight</th></tr>
{{range .}}<tr data-kind="{{.Kind}}"><td>{{.}}</td><td>{{.Target}}{{with .Lock}}<br>holder of {{.Key}} ({{.Holder}}, held {{.HeldFor}}){{end}}</td><td>{{.Outcome}}</td><td>{{if not .Injected.IsZero}}{{.Injected.Format "15:04:05.000"}}{{if not .Ended.IsZero}} to {{.Ended.Format "15:04:05.000"}}{{end}}{{end}}</td><td class="inflight"{{with .InFlight}} data-in-flight="{{.Requests}}"{{end}}>{{with .InFlight}}{{.Requests}} on {{.Scope}}: {{.Ambiguous}} ambiguous, {{.Acknowledged}} acknowledged, {{.Rejected}} rejected{{end}}</td></tr>
{{end}}</table><p class="legend">Each injected fault is a dashed line on the requests-in-flight plot (a pause: its start and its end). In flight: the load requests sent before the fault hit and not answered before it; a request it cut off is ambiguous, never lost or torn on its own.</p>{{end}}
{{with .R.Leftovers}}<h2 id="leftovers" data-lock-files="{{len .LockFiles}}" data-temp-files="{{len .TempFiles}}" data-redis-locks="{{len .RedisLocks}}">Left behind</h2>
<p>What a dead holder may have left, read after the load: not findings, and the verdict and exit code do not depend on it.{{if not .Read}} The files and Redis locks were not read (the run named no sandbox's state directory).{{end}}</p>
{{with .RedisLocks}}<table class="redislocks"><tr><th>Redis lock</th><th>holder</th><th>status</th><th class="n">masters</th><th class="n">TTL ms</th></tr>
{{range .}}<tr data-status="{{.Status}}"><td>{{.Key}}</td><td>{{.Value}}</td><td>{{.Status}}: {{.Reason}}</td><td class="n">{{.Held}}/{{.Masters}}</td><td class="n">{{.TTLMillis}}</td></tr>
{{end}}</table>{{end}}
{{if or .LockFiles .TempFiles}}<table class="leftfiles"><tr><th>file</th><th>kind</th><th class="n">bytes</th><th>modified</th></tr>
{{range .LockFiles}}<tr><td>{{.Path}}</td><td>lock file, {{.Status}}</td><td class="n">{{.Size}}</td><td>{{.ModTime.Format "15:04:05.000"}}</td></tr>
{{end}}{{range .TempFiles}}<tr><td>{{.Path}}</td><td>temp {{if .Dir}}directory{{else}}file{{end}}</td><td class="n">{{.Size}}</td><td>{{.ModTime.Format "15:04:05.000"}}</td></tr>
{{end}}</table>{{end}}
{{with .BlockedFor}}<ul class="blocked">{{range .}}<li>{{.Fault}} may have blocked analysis {{.Analysis}} for up to {{printf "%.1f" .Seconds}} s (request {{.Seq}} on it waited that long after the fault: an upper bound)</li>{{end}}</ul>{{end}}
{{with .Warnings}}<ul>{{range .}}<li>not read: {{.}}</li>{{end}}</ul>{{end}}{{end}}
<h2 id="findings" data-findings="{{len .R.Findings}}">Findings ({{len .R.Findings}})</h2>
{{if not .R.Findings}}<p class="nofindings">No findings.</p>
{{else}}<p>{{.R.CountsLine}}. {{.Drawn}} race timelines drawn: the first 5 findings of each kind always, then up to 20 of each kind while the page stays small. The JSON report has every finding.</p>
<p class="legend">Each bar is one request, on the lane of the target that took it, from when it was sent to when it was answered:
<span><i class="sw ack"></i>acknowledged</span><span><i class="sw rej"></i>rejected</span><span><i class="sw amb"></i>ambiguous</span><span><i class="sw ctx"></i>another request on the same object</span><span>&#9660; the state holds its bytes</span><span><i class="sw read"></i>the state was read</span>{{if .R.Kind.Jobs}}<span><i class="sw above"></i>more jobs surely active than the ceiling</span>{{end}}</p>
{{range .Groups}}<section class="kind" data-kind="{{.Kind}}" data-count="{{.Count}}"><h3>{{.Kind}} ({{.Count}})</h3>
<table class="findings"><tr><th>#</th><th>object</th><th>path</th><th>expected</th><th>got</th><th>requests</th></tr>
{{range .Rows}}<tr id="finding-{{.Index}}"><td>{{.Index}}{{if .Timeline}} <a href="#timeline-{{.Index}}">timeline</a>{{end}}</td><td class="obj">{{.Object}}</td><td class="paths">{{.Path}}{{with .More}}<details><summary>and {{len .}} more</summary>{{range .}}{{.}}<br>{{end}}</details>{{end}}</td><td class="txt">{{.Expected}}</td><td class="txt">{{.Got}}</td><td class="reqs">{{range .Requests}}{{.}}<br>{{end}}</td></tr>
{{end}}</table>{{if .More}}<p>and {{.More}} more {{.Kind}} findings in the JSON report</p>{{end}}
{{range .Figures}}<figure id="timeline-{{.Index}}"><figcaption>Finding {{.Index}}: {{.Caption}}{{if .Omitted}}; {{.Omitted}} other requests on it not drawn{{end}}</figcaption>
{{.SVG}}</figure>
{{end}}</section>
{{end}}{{end}}
<h2>Over time</h2>
{{index .Plots "throughput"}}
<p class="legend"><span><i class="sw amb"></i>ambiguous</span><span><i class="sw rej"></i>rejected (503, other 4xx)</span><span><i class="sw ack"></i>acknowledged</span></p>
{{index .Plots "latency"}}
<p class="legend"><span><i class="sw p50"></i>p50</span><span><i class="sw p90"></i>p90</span><span><i class="sw p99"></i>p99</span></p>
{{index .Plots "inflight"}}
<h2>Latency</h2>
{{index .Plots "histogram"}}
{{with .R.PerOperation}}<h2>Per operation</h2>
<table class="breakdown" id="per-operation"><tr><th>operation</th><th class="n">sent</th><th class="n">acknowledged</th><th class="n">rejected</th><th class="n">ambiguous</th><th class="n">p50 ms</th><th class="n">p99 ms</th></tr>
{{range .}}<tr><td>{{.Name}}</td><td class="n">{{.Sent}}</td><td class="n">{{.Acknowledged}}</td><td class="n">{{.Rejected}}</td><td class="n">{{.Ambiguous}}</td><td class="n">{{f1 .P50}}</td><td class="n">{{f1 .P99}}</td></tr>
{{end}}</table>{{end}}
{{with .R.PerTarget}}<h2>Per target</h2>
<table class="breakdown" id="per-target"><tr><th>target</th><th class="n">sent</th><th class="n">acknowledged</th><th class="n">rejected</th><th class="n">ambiguous</th><th class="n">p50 ms</th><th class="n">p99 ms</th></tr>
{{range .}}<tr><td>{{redact .Name}}</td><td class="n">{{.Sent}}</td><td class="n">{{.Acknowledged}}</td><td class="n">{{.Rejected}}</td><td class="n">{{.Ambiguous}}</td><td class="n">{{f1 .P50}}</td><td class="n">{{f1 .P99}}</td></tr>
{{end}}</table>{{end}}
{{with .R.Workers}}<h2>Workers</h2>
<table class="breakdown" id="workers"><tr><th>worker</th><th>pod</th><th class="n">sent</th><th class="n">acknowledged</th><th class="n">requests/s</th><th class="n">p99 ms</th><th class="n">no answer</th><th>finished</th></tr>
{{range .}}<tr><td>{{.Index}}</td><td>{{.Pod}}</td><td class="n">{{.Sent}}</td><td class="n">{{.Acknowledged}}</td><td class="n">{{f1 .Throughput}}</td><td class="n">{{f1 .P99}}</td><td class="n">{{.Errors}}</td><td>{{if .Lost}}no: the worker died{{else}}yes{{end}}</td></tr>
{{end}}</table>{{end}}
{{with .R.Notices}}<h2>Notices</h2><ul>{{range .}}<li>{{redact .}}</li>{{end}}</ul>{{end}}
</body></html>
`
