#!/bin/sh
# One boot: the lab's kbuild cell (tools/objtool of SRC, the host's gcc in a
# chroot over 9p, -j2, an 80 MiB memcg, zram) once per CAPS value written to
# lru_gen/enabled, by default the PUD filter on (0x001f) and off (0x0017),
# ABBA; caches dropped and a fresh memcg before each build.  Per build: the
# memcg's refaults, major faults, activations and scans, zram pages read, and
# the memcg's lru_gen_full mm stats after the build, and the /proc/vmstat
# deltas of scans and steals per type (the memcg is the only one under
# pressure).  CAPS/P also writes P to the parameter fg_protect_exp of an
# experiment kernel that has it.  Guest side of
#   scripts/vm-run.sh -k BZIMAGE -n NAME -t 3000 -z 512 -d 512 -s / \
#       oneboot.sh SRC [CAPS...]
# with SRC the base tree's path on the host (build/base-tree).
set -eu # busybox sh; no pipelines whose status matters
tmp=${TMPDIR:-/tmp} # the guest initramfs
src=$1
shift
[ $# -gt 0 ] || set -- 0x001f 0x0017 0x0017 0x001f
root=/mnt/host
cg=/sys/fs/cgroup
mount | grep -q cgroup2 || mount -t cgroup2 none $cg
mount | grep -q debugfs || mount -t debugfs none /sys/kernel/debug
echo +memory > $cg/cgroup.subtree_control
mkdir -p /mnt/scratch/src
mount --bind /dev $root/dev
mount -t proc proc $root/proc
mount --bind "$root$src" /mnt/scratch/src
mount -o rbind /mnt/scratch $root/tmp
i=0
vmstat() {
	awk '$1 ~ /^(pgscan|pgsteal)_(anon|file)$|^pswp(in|out)$/ { print $1, $2 }' /proc/vmstat
}
for arm in "$@"; do
	i=$((i + 1))
	caps=${arm%/*}
	if [ "$caps" != "$arm" ]; then
		echo "${arm#*/}" > /sys/module/vmscan/parameters/fg_protect_exp
	fi
	rm -rf /mnt/scratch/kbuild
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo "$caps" > /sys/kernel/mm/lru_gen/enabled
	d=$cg/b$i
	mkdir $d
	echo 80M > $d/memory.max
	vmstat > "$tmp"/vm0
	r0=$(awk '{ print $3 }' /sys/block/zram0/stat)
	# shellcheck disable=SC2016 # expanded by the chroot's shell
	sh -c "echo \$\$ > $d/cgroup.procs; exec chroot $root /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp LC_ALL=C /bin/sh -ec '
		mkdir -p \$HOME/kbuild
		make -s -j2 -C \$HOME/src/tools/objtool O=\$HOME/kbuild > \$HOME/kbuild.log 2>&1'"
	r1=$(awk '{ print $3 }' /sys/block/zram0/stat)
	echo "=== build $i caps $arm zram_read_pages $(((r1 - r0) / 8))"
	vmstat > "$tmp"/vm1
	awk 'NR == FNR { v[$1] = $2; next } { print "vm_" $1, $2 - v[$1] }' "$tmp"/vm0 "$tmp"/vm1
	grep -E "^(workingset_(refault|activate|restore)_(file|anon)|pgmajfault|pgactivate|pgdeactivate|pgrefill|pgscan|pgsteal) " $d/memory.stat
	awk -v p="/b$i" '$1 == "memcg" { on = ($3 == p) } on && /[0-9]+T/' /sys/kernel/debug/lru_gen_full
done
