#!/bin/sh
# include-attr-cache.sh CONF SRC: make the NFS-Ganesha config CONF (nfs-provisioner's
# /export/vfs.conf) include SRC/attr-cache.conf, copied beside CONF (on the data volume, so that
# the include never names a missing file, even after this change is taken out again). On a fresh
# volume CONF is first written with nfs-provisioner's own default (SRC/vfs.conf), which the
# provisioner would otherwise write itself. Safe to run at every start: the line is added once.
# POSIX sh, cat and mv only (it runs in the provisioner's image).
set -eu
conf=${1:?usage: include-attr-cache.sh CONF SRC}
src=${2:?usage: include-attr-cache.sh CONF SRC}
case "$conf" in
  */*) inc="${conf%/*}/osctl-attr-cache.conf" ;;
  *) inc=osctl-attr-cache.conf ;;
esac
cat "$src/attr-cache.conf" > "$inc.tmp"
mv -f "$inc.tmp" "$inc"
if [ ! -e "$conf" ]; then
  cat "$src/vfs.conf" > "$conf"
  echo "include-attr-cache: wrote nfs-provisioner's default config to $conf"
fi
line="%include \"$inc\""
while IFS= read -r l || [ -n "$l" ]; do
  if [ "$l" = "$line" ]; then
    echo "include-attr-cache: $conf already includes $inc"
    exit 0
  fi
done < "$conf"
printf '\n%s\n' "$line" >> "$conf"
echo "include-attr-cache: $conf now includes $inc (Attr_Expiration_Time = 0 for every export)"
