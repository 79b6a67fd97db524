#!/bin/bash
# make bench: every benchmark side by side with the tool a user would pick instead, in one go.
# Each scripts/bench/<area>.sh prints its figures and ratios; this collects them into
# reports/bench-<date>.txt as well as the terminal.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports
out=reports/bench-$(date -u +%Y%m%dT%H%M%SZ).txt
rc=0
for s in scripts/bench/*.sh; do
  [ -n "${BENCH_ONLY:-}" ] && [[ "$s" != *"$BENCH_ONLY"* ]] && continue
  echo "=== $s" | tee -a "$out"
  if ! bash "$s" 2>&1 | tee -a "$out"; then rc=1; echo "!!! $s failed" | tee -a "$out"; fi
done
echo "figures written to $out"
exit $rc
