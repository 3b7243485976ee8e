#!/bin/sh
# Guest side of 'make run': show the multi-gen LRU of the patched kernel at
# work.  Reads the runtime switches, runs a small file workload in a memcg
# and prints the lru_gen debugfs of that memcg before and after.  The caps,
# the memcg and the aging go through /guest/lru_gen_query (lab/).
set -eu
enabled=/sys/kernel/mm/lru_gen/enabled
dbg=/sys/kernel/debug/lru_gen
query=/guest/lru_gen_query
# block MEMCG_ID FILE: that memcg's part of an lru_gen file
block() {
	awk -v id="$1" '$1 == "memcg" { p = ($2 == id) } p' "$2"
}
section() { printf '\n---- %s\n' "$*"; }

section "kernel"
uname -r
sed 's/^/NUMA nodes online: /' /sys/devices/system/node/online
caps=$($query caps)
section "runtime switches: $enabled = $caps"
for bit in 0x0001:"multi-gen LRU core" 0x0002:"page table walks for aging" \
	0x0004:"clear accessed bits in non-leaf PMDs" 0x0008:"PUD-level Bloom filter"; do
	b=${bit%%:*}
	if [ $((caps & b)) != 0 ]; then
		s=on
	elif $query has-cap "$b"; then
		s=off
	else
		s="not in this kernel"
	fi
	printf '  %s  %-40s %s\n' "$b" "${bit#*:}" "$s"
done

# a memcg of a unique name (lru_gen lists dying memcgs too), with this shell
cg=$($query memcg-create demo $$)
echo 64M > "$cg/memory.max"
id=$($query memcg-id "/${cg##*/}")
section "memcg /${cg##*/} (id $id, memory.max 64 MiB): lru_gen before the workload"
block "$id" $dbg

# A 96 MiB file (more than the limit) written, read twice, and a 16 MiB
# hot file read 8 times in between.
cd /mnt/scratch
dd if=/dev/zero of=cold bs=1M count=96 2>/dev/null
dd if=/dev/zero of=hot bs=1M count=16 2>/dev/null
sync
echo 1 > /proc/sys/vm/drop_caches
for _ in 1 2; do
	for _ in 1 2 3 4; do cat hot > /dev/null; done
	cat cold > /dev/null
done
$query age "$id" 0 > /dev/null || echo "(aging node 0 failed)"

section "lru_gen after the workload (one more aging step on node 0)"
block "$id" $dbg
section "lru_gen_full after the workload, node 0 (tiers and page-table walk counters)"
block "$id" ${dbg}_full | awk '$1 == "node" { n = $2 } n == 0'
section "memory.stat of /${cg##*/}"
grep -E '^(file|workingset_refault_file|workingset_activate_file|active_file|inactive_file|pgscan|pgsteal) ' "$cg/memory.stat"

# Page-table aging of a node that holds next to none of a process's memory:
# a process bound to node 0 with 8 GiB of sparse mappings and 2 MiB on node 1
# in its hot PUD (the series does not walk for a node without any), aged on
# node 1.
cd /guest
section "aging node 1 for a process on node 0 (2 MiB on node 1): 20 passes per setting"
if [ $((caps & 0x8)) != 0 ]; then
	./aging_cost -s 8 -H 16 -n 2 -p 20 -r 1 -e $((caps)),$((caps & ~0x8))
else
	./aging_cost -s 8 -H 16 -n 2 -p 20 -r 1 -e $((caps))
fi | awk -F'[{}:,"]+' '
	BEGIN { printf "  %-8s %12s %10s %10s %12s %12s\n", "enabled", "median us", "leaf/pass",
		"young", "pud_skipped", "pud_carried" }
	{ for (i = 2; i < NF; i += 2) v[$i] = $(i + 1)
	  printf "  %-8s %12s %10s %10s %12s %12s\n", v["enabled"], v["aging_us_median"],
		v["leaf_per_pass"], v["young_per_pass"], v["pud_skipped_per_pass"],
		v["pud_carried_per_pass"] }'
echo "  (per pass; -1: this kernel has no such counter)"
