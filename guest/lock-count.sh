#!/bin/sh
# Guest side of the LRU lock count (results/6.12/README.md, lock-count.txt): on
# a kernel with CONFIG_LOCK_STAT, how often the read path takes an LRU lock.
# In a memcg with room for it, 1 and 2 readers pread() an 8 MiB hot file
# that is in the page cache (every read a hit, so the only LRU work is the
# access count), with bit 0x0010 of lru_gen/enabled on and off, ROUNDS
# times each; around every run /proc/lock_stat is cleared and read.
# Prints one line per run: "readers caps reads acquisitions contentions"
# of the lru_lock class (&lruvec->lru_lock), summed over its call sites.
# Usage: lock-count.sh [ROUNDS] [OPS]
set -eu
rounds=${1:-3}
ops=${2:-50000}
enabled=/sys/kernel/mm/lru_gen/enabled
root=/sys/fs/cgroup
[ -w /proc/lock_stat ] || { echo "no /proc/lock_stat (CONFIG_LOCK_STAT)" >&2; exit 4; }
caps0=$(cat "$enabled")
[ $((caps0 & 0x11)) = $((0x11)) ] || { echo "lru_gen/enabled is $caps0, want 0x0010 and 0x0001 on" >&2; exit 4; }
caps_off=$(printf '0x%04x' $((caps0 & ~0x10)))

head -c $((8 << 20)) /dev/urandom > /mnt/scratch/hot.bin
echo "+memory" > "$root/cgroup.subtree_control"
mkdir -p "$root/lockcount"
echo 256M > "$root/lockcount/memory.max"
echo $$ > "$root/lockcount/cgroup.procs"
cat /mnt/scratch/hot.bin > /dev/null

# lru_lock acquisitions and contentions since the last clear: after the
# class name, a class line of /proc/lock_stat has con-bounces, contentions,
# four wait times, acq-bounces and acquisitions (fields 2, 3, 8 and 9)
lock_line() {
	awk '$1 == "&lruvec->lru_lock:" { acq += $9; con += $3 } END { print acq + 0, con + 0 }' \
		/proc/lock_stat
}
run() { # run READERS CAPS
	echo "$2" > "$enabled"
	echo 0 > /proc/lock_stat
	i=0
	while [ $i -lt "$1" ]; do
		/guest/hotstream fit -H /mnt/scratch/hot.bin -n "$ops" > /dev/null &
		i=$((i + 1))
	done
	wait
	echo "$1 $2 $(($1 * ops)) $(lock_line)"
}
echo "# readers caps reads lru_lock_acquisitions lru_lock_contentions"
r=0
while [ $r -lt "$rounds" ]; do
	for n in 1 2; do
		run $n "$caps0"
		run $n "$caps_off"
	done
	r=$((r + 1))
done
echo "$caps0" > "$enabled"
echo $$ > "$root/cgroup.procs"
rmdir "$root/lockcount"
echo "-memory" > "$root/cgroup.subtree_control" 2> /dev/null || true
rm -f /mnt/scratch/hot.bin
