#!/usr/bin/env bash
# Prints osctl's version for this checkout, as the Go toolchain stamps a main module built in it
# (go version -m): the tag when HEAD is exactly at a semver tag, else a pseudo-version
# (v0.0.0-YYYYMMDDHHMMSS-<12 hex>, or vX.Y.(Z+1)-0.<time>-<hash> after a tag vX.Y.Z), with
# "+dirty" when `git status --porcelain` lists anything. Outside git: "dev".
set -euo pipefail
git rev-parse --verify -q HEAD >/dev/null 2>&1 || { echo dev; exit 0; }
semver='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'
dirty=""
[ -z "$(git status --porcelain 2>/dev/null)" ] || dirty="+dirty"
tag=$(git describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null || true)
if [ -n "$tag" ] && [[ $tag =~ $semver ]]; then
	echo "$tag$dirty"
	exit 0
fi
when=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y%m%d%H%M%S HEAD)
hash=$(git log -1 --format=%H HEAD | cut -c1-12)
prev=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || true)
if [ -n "$prev" ] && [[ $prev =~ $semver ]]; then
	if [[ $prev == *-* ]]; then # a pre-release: v1.2.3-rc.1 -> v1.2.3-rc.1.0.<time>-<hash>
		echo "$prev.0.$when-$hash$dirty"
	else # v1.2.3 -> v1.2.4-0.<time>-<hash>
		IFS=. read -r major minor patch <<<"$prev"
		echo "$major.$minor.$((patch + 1))-0.$when-$hash$dirty"
	fi
	exit 0
fi
echo "v0.0.0-$when-$hash$dirty"
