#!/bin/sh
# One boot: the lab's anon hot+stream cell (a 40 MiB anon hot set with half
# of the touches, the other half writing a 269 MiB one-shot anon stream, in
# a 64 MiB memcg, zram swap) with bit 0x0010 on and off, ABAB.  Per run:
# anon_churn's JSON, the memcg's memory.stat counters and its last
# lru_gen_full section before the process exited.  Guest side of
#   scripts/vm-run.sh -k BZIMAGE -n NAME -t 800 -z 512 -f DIR oneboot.sh
# with anon_churn (build/guest-bench/) in DIR.  Arguments: the values of
# lru_gen/enabled to run with, in order (default 0x001f 0x000f 0x001f 0x000f).
set -eu # busybox sh; no pipelines whose status matters
tmp=${TMPDIR:-/tmp} # the guest initramfs
cg=/sys/fs/cgroup
mount | grep -q cgroup2 || mount -t cgroup2 none $cg
mount | grep -q debugfs || mount -t debugfs none /sys/kernel/debug
echo +memory > $cg/cgroup.subtree_control
i=0
[ $# -gt 0 ] || set -- 0x001f 0x000f 0x001f 0x000f
for caps in "$@"; do
	i=$((i + 1))
	echo "$caps" > /sys/kernel/mm/lru_gen/enabled
	d=$cg/m$i
	mkdir $d
	echo 64M > $d/memory.max
	sh -c "echo \$\$ > $d/cgroup.procs; exec /guest/anon_churn -s 40 -H 40 -P 50 -n 100000 -d zram0 -S 269" > "$tmp"/out.$i &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		awk -v p="/m$i" '$1 == "memcg" { on = ($3 == p) } on' /sys/kernel/debug/lru_gen_full > "$tmp"/dump.new
		[ -s "$tmp"/dump.new ] && mv "$tmp"/dump.new "$tmp"/dump.$i
		sleep 0.3
	done
	wait $pid || true
	echo "=== run $i caps $caps"
	cat "$tmp"/out.$i
	grep -E "^(pgactivate|pgdeactivate|pgrefill|workingset_(refault|activate|restore)_anon|pgsteal|pgscan) " $d/memory.stat
	echo "--- lru_gen_full"
	cat "$tmp"/dump.$i
	rmdir $d || true
done
