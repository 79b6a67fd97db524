#!/bin/sh
# PID 1 inside User-Mode Linux (booted by internal/testenv/uml.go; the host's / is the root
# through hostfs). Starts the kernel NFS server on loopback, mounts the export twice as NFSv3
# from two addresses (two client instances, two caches): A with actimeo=60, B with noac; then
# runs $OSCTL_UML_DIR/program.sh and powers off. Results go to $OSCTL_UML_DIR/out on the host.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
D=$OSCTL_UML_DIR
O=$D/out
U=$D/nfs
S=$U/export
mkdir -p "$O"
exec >"$O/init.log" 2>&1
ms() { date +%s%3N; }
T0=$(ms)
log() { echo "[uml +$(( $(ms) - T0 ))ms] $*"; }
fail() { log "FAILED: $*"; dmesg 2>/dev/null | tail -15; echo "$*" >"$O/setup.err"; echo o >/proc/sysrq-trigger; sleep 10; }
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t tmpfs tmpfs /run
mkdir -p /var/lib/nfs
mount -t tmpfs tmpfs /var/lib/nfs
mount -t tmpfs tmpfs "$U" || fail "tmpfs on $U"
mkdir -p /var/lib/nfs/sm /var/lib/nfs/v4recovery "$S" "$U/A" "$U/B"
touch /var/lib/nfs/etab
mount -t tmpfs tmpfs "$S" && chmod 1777 "$S"
hostname umlnfs
ip link set lo up
for m in nfsv3 nfsv4 nfsd; do modprobe -d "$D/mods" $m || fail "modprobe $m"; done
mount -t nfsd nfsd /proc/fs/nfsd || fail "mount nfsd"
# A fresh server refuses new locks during its grace period (NLM: nlm_grace_period rounded up to
# nlm_timeout, else 5 x nlm_timeout); shorten it (3 s is the minimum) so the first flock does
# not wait for it.
[ -w /proc/sys/fs/nfs/nlm_timeout ] && echo 3 >/proc/sys/fs/nfs/nlm_timeout
[ -w /proc/sys/fs/nfs/nlm_grace_period ] && echo 3 >/proc/sys/fs/nfs/nlm_grace_period
rpcbind || fail rpcbind
rpc.statd --no-notify || fail rpc.statd
exportfs -o rw,sync,no_subtree_check,no_root_squash,insecure,fsid=0 "127.0.0.0/8:$S" || fail exportfs
rpc.mountd || fail rpc.mountd
rpc.nfsd -G 10 -L 10 8 || fail rpc.nfsd
log "server up"
mount -t nfs -o vers=3,actimeo=60 "127.0.0.1:$S" "$U/A" || fail "mount A"
mount -t nfs -o vers=3,noac "127.0.0.2:$S" "$U/B" || fail "mount B"
log "client mounts up"
grep -E " $U/(A|B) " /proc/self/mountinfo
cp /proc/self/mountinfo "$O/mountinfo.txt"
export UML_A=$U/A UML_B=$U/B UML_EXPORT=$S UML_OUT=$O
log "running program"
sh "$D/program.sh" >"$O/program.out" 2>"$O/program.err"
echo $? >"$O/program.rc"
log "program done"
umount "$U/A" "$U/B"
rpc.nfsd 0
sync
echo o >/proc/sysrq-trigger
sleep 10
