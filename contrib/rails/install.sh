#!/bin/sh
# install.sh APP_ROOT: installs osctl's Redis lock into an OpenStudio Server v3.7.0 tree, as
# docs/migration/rails.md says: osctl_lock.rb copied to APP_ROOT/server/lib/, then the patch
# applied with `git apply` from APP_ROOT (the directory that holds server/). The image build
# (contrib/rails/Dockerfile) runs it; so can a checkout of NREL/OpenStudio-server at v3.7.0.
# It checks the patch first and changes nothing when the tree is not v3.7.0's or is already
# patched.
set -eu
if [ $# -ne 1 ] || [ ! -d "$1/server/app" ]; then
	echo "usage: install.sh APP_ROOT (the directory that holds OpenStudio Server's server/)" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
patch="$here/openstudio-server-v3.7.0.patch"
cd "$1"
if [ -e server/config/initializers/osctl_lock.rb ]; then
	echo "install.sh: $1 already has server/config/initializers/osctl_lock.rb: the lock is installed; nothing changed" >&2
	exit 1
fi
if ! git apply --check "$patch"; then
	echo "install.sh: the patch does not apply to $1/server: it is written for OpenStudio Server v3.7.0; nothing changed" >&2
	exit 1
fi
cp "$here/osctl_lock.rb" server/lib/osctl_lock.rb
git apply "$patch"
echo "install.sh: osctl's lock installed in $1/server (server/lib/osctl_lock.rb, $(basename "$patch"))"
