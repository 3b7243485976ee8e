#!/bin/bash
# Guest side of 'make stress' (scripts/stress.sh): everything that changes
# what the multi-gen LRU tracks, all at once, for STRESS_S seconds, with
# fuzzers on its interfaces; then consistency checks.  Prints KTAP (the
# kernel's ktap_helpers.sh) and '### STRESS-SUMMARY {json}'.
#
# Workloads, each in a loop until the deadline:
#   memcg stress.a: a page-cache stream with a pread() hot set (hotstream),
#     the hot file mapped and read (mmstress mmap), memory.max lowered and
#     raised, memory.reclaim writes;
#   memcg stress.b: anonymous churn with zram swap (anon_churn), THPs split
#     and remapped (mmstress thp), MADV_COLD/MADV_PAGEOUT (mmstress hint),
#     memory.max lowered and raised;
#   memcg stress.c: pages moved between the nodes (mmstress numa), and a
#     task moved between the three memcgs;
#   forced aging and eviction of every memcg and node through
#   /sys/kernel/debug/lru_gen, drop_caches, and random values of every bit
#   of /sys/kernel/mm/lru_gen/enabled, the multi-gen LRU itself included.
# Fuzzers: random and boundary input to lru_gen/enabled and min_ttl_ms (a
# rejected write must fail and change nothing), bad commands to
# /sys/kernel/debug/lru_gen, and reads of lru_gen and lru_gen_full while
# memcgs are created and removed.
# The last check is that the free memory comes back: MemFree plus the pages
# on the per-cpu free lists, which the allocator keeps more of after heavy
# churn (89 MiB of 1.6 GiB after 2 minutes here), net of slab growth; and
# slab grows at most by what KASAN's quarantine of freed objects holds
# (MemTotal / 32) with the second argument "kasan", 1% of MemTotal without.
set -uo pipefail
export PATH="/guest:$PATH"
# shellcheck source=/dev/null # the kernel's tools/testing/selftests/kselftest/
. /guest/ktap_helpers.sh

secs=${1:-${STRESS_S:-1800}}
case $secs in '' | *[!0-9]*) echo "Bail out! STRESS_S=$secs"; exit 1 ;; esac
kasan=${2:-}
case $kasan in '' | kasan) ;; *) echo "Bail out! second argument '$kasan': kasan or none"; exit 1 ;; esac
scratch=${TMPDIR:-/mnt/scratch}
root=/sys/fs/cgroup
enabled=/sys/kernel/mm/lru_gen/enabled
ttl=/sys/kernel/mm/lru_gen/min_ttl_ms
dbg=/sys/kernel/debug/lru_gen
work=$(mktemp -d)
deadline=$(($(date +%s) + secs))
caps0=$(cat "$enabled")
# the bits of lru_gen/enabled this kernel has (bit 0 to 6): the flips set
# only those, a write of any other one fails (or is dropped, on stock)
caps_mask=0
for b in 1 2 4 8 16 32 64; do
	! lru_gen_query has-cap "$b" || caps_mask=$((caps_mask | b))
done
ttl0=$(cat "$ttl")
# the same state as at the end: no page cache
sync
echo 3 > /proc/sys/vm/drop_caches
pcp_kb() { # free pages on the per-cpu lists, which MemFree does not count
	awk '$1 == "count:" { c += $2 } END { print c * 4 }' /proc/zoneinfo
}
field() { awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo; } # field NAME: kB
slab_kb() { # slab_kb FILE: per cache, name and kB of its slabs
	awk 'NR > 2 { printf "%s %d\n", $1, $3 * $4 / 1024 }' /proc/slabinfo > "$1" 2> /dev/null || true
}
po=/sys/kernel/debug/page_owner_stacks
owner_pages() { # owner_pages FILE: per page_owner stack, handle and pages
	[ -r "$po/show_handles" ] || return 0
	awk '$1 == "handle:" { h = $2 } $1 == "nr_base_pages:" { print h, $2 }' \
		"$po/show_handles" > "$1"
}
owner_pages "$work/owner0"
slab_kb "$work/slab0"
free0=$(($(field MemFree) + $(pcp_kb)))
slab0=$(field Slab)
meminfo0=$(cat /proc/meminfo)

ktap_print_header
ktap_set_plan 10
echo "# stress: ${secs} s, enabled $caps0 (bits $(printf '0x%04x' "$caps_mask")), min_ttl_ms $ttl0, free $free0 kB, scratch $scratch"

alive() { [ "$(date +%s)" -lt "$deadline" ]; }
count() { echo 1 >> "$work/count.$1"; } # count KIND: one more operation
counted() { [ -f "$work/count.$1" ] && wc -l < "$work/count.$1" || echo 0; }
rnd() { echo $((RANDOM % $1)); } # rnd N: 0..N-1

# files on the scratch disk: a 16 MiB hot file and a 128 MiB stream
mkdir -p "$scratch/stream"
head -c $((16 << 20)) /dev/urandom > "$scratch/hot.bin"
for i in 0 1 2 3 4 5 6 7; do
	head -c $((16 << 20)) /dev/zero | tr '\0' "$i" > "$scratch/stream/s$i.bin"
done
sync

echo "+memory" > "$root/cgroup.subtree_control"
for g in a b c; do mkdir -p "$root/stress.$g"; done
echo 48M > "$root/stress.a/memory.max"
echo 48M > "$root/stress.b/memory.max"
echo 0 > "$root/stress.a/memory.swap.max"

# in_memcg G COMMAND...: run COMMAND in memcg stress.G
in_memcg() {
	local g=$1
	shift
	bash -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$root/stress.$g" "$@"
}
loop() { # loop KIND COMMAND...: COMMAND again and again until the deadline
	local kind=$1
	shift
	while alive; do
		"$@" > /dev/null 2>&1 || true
		count "$kind"
	done
}

# ---- workloads ---------------------------------------------------------------
left() { echo $((deadline - $(date +%s) > 1 ? deadline - $(date +%s) : 1)); }
loop stream in_memcg a hotstream mix -H "$scratch/hot.bin" -s "$scratch/stream" -k 4 &
loop mmap_read in_memcg a mmstress mmap -t 10 -f "$scratch/hot.bin" &
loop anon in_memcg b anon_churn -s 64 -H 24 -P 90 -n 100000 &
loop thp in_memcg b mmstress thp -t 10 -m 64 &
loop hint in_memcg b mmstress hint -t 10 -m 32 &
loop numa in_memcg c mmstress numa -t 10 -m 16 &
(
	sleep 100000 &
	pid=$!
	while alive; do
		echo "$pid" > "$root/stress.$(printf 'abc' | cut -c$(($(rnd 3) + 1)))/cgroup.procs" &&
			count task_move
		sleep 0.2
	done
	kill "$pid"
) &
(
	while alive; do
		for g in a b; do
			echo "$((24 + $(rnd 48)))M" > "$root/stress.$g/memory.max" && count limit
		done
		echo 4M > "$root/stress.a/memory.reclaim" 2> /dev/null && count reclaim
		sleep 0.5
	done
) &
(
	while alive; do
		for g in a b c; do
			id=$(lru_gen_query memcg-id "/stress.$g" 2> /dev/null) || continue
			for nid in 0 1; do
				lru_gen_query age "$id" "$nid" --force > /dev/null 2>&1 && count age
				seq=$(lru_gen_query min-seq "$id" "$nid" 2> /dev/null) &&
					echo "- $id $nid $seq" > "$dbg" 2> /dev/null && count evict
			done
		done
		sleep 0.2
	done
) &
(
	while alive; do
		sleep 3
		echo $((1 + $(rnd 3))) > /proc/sys/vm/drop_caches && count drop_caches
	done
) &

# ---- fuzzers -----------------------------------------------------------------
bad() { echo "$*" >> "$work/bad"; }
fuzz_write() { # fuzz_write FILE VALUE STRICT: a rejected write changes nothing;
	# with STRICT, VALUE must be rejected
	local f=$1 v=$2 before after
	before=$(cat "$f")
	if printf '%s' "$v" > "$f" 2> /dev/null; then
		count fuzz_accepted
		[ "$3" = 0 ] || bad "$f: '$v' accepted ($before -> $(cat "$f"))"
	else
		after=$(cat "$f")
		count fuzz_rejected
		[ "$after" = "$before" ] || bad "$f: '$v' rejected but $before -> $after"
	fi
	count fuzz_input
}
# fuzz_file FILE STRICT: odd and boundary input; with STRICT, all of it is
# invalid for FILE (lru_gen/enabled: not a number, or bits from 0x0080 up)
fuzz_file() {
	local v
	# (an empty value would write nothing at all: a newline alone instead)
	for v in $'\n' " " "0x" "0x80" "0x100" "0xffffffff" "0x100000000" "-1" "--1" "+" \
		"99999999999999999999" "1e3" "0x1z" "abc" "1 2" "x1"; do
		fuzz_write "$1" "$v" "$2"
	done
	for v in "y y" "$(head -c 12 /dev/urandom | tr -dc 'a-z0-9x')" "$((RANDOM * RANDOM))" "$(rnd 5000)"; do
		fuzz_write "$1" "$v" 0
	done
}
(
	# flips and fuzzing of enabled in one loop, so that a rejected write
	# can be checked against the value before it
	while alive; do
		v=$(printf '0x%04x' $(($(rnd 128) & caps_mask | ($(rnd 4) ? 1 : 0))))
		echo "$v" > "$enabled" && count caps_flip
		[ "$(rnd 10)" != 0 ] || fuzz_file "$enabled" 1
		sleep 0.$((1 + $(rnd 9)))
	done
	echo "$caps0" > "$enabled"
) &
(
	while alive; do
		fuzz_file "$ttl" 0
		echo "$ttl0" > "$ttl"
		sleep 0.3
	done
) &
(
	long=$(head -c 5000 /dev/zero | tr '\0' '9')
	while alive; do
		id=$(lru_gen_query memcg-id /stress.a 2> /dev/null) || id=1
		dying=$(cat "$work/dying" 2> /dev/null) || dying=$((id + 1000))
		for c in "x 1 0 0" "+" "+ $id" "+ 999999 0 0" "+ $id 99 0" "+ $id -1 0" \
			"- $id 0 0 300 0" "- $id 0 0 60 99999999999999999999" \
			"+ $id 0 18446744073709551615" "+ $id 0 0 2 1" "- $id 0 1 -5 10" \
			"+ $id 0 $long" "$long" "+ $id 0 1; - $id 0 1; + $id 1 1" \
			"- 65535 0 3" "+ 0 0 0" "+ $id 0 1 1 1 1 1" "+,-;;" \
			"+ $((id + 1000)) 0 3" "+ $dying 0 1" "- $dying 0 0 100 64" "+ $id 2 1" \
			"- $id 64 0" "- $id 0 0 0 64" "+ $id 0 1 1 0"; do
			if printf '%s\n' "$c" > "$dbg" 2> /dev/null; then
				count fuzz_accepted
			else
				count fuzz_rejected
			fi
			count fuzz_input
		done
		sleep 0.2
	done
) &
(
	n=0
	while alive; do
		mkdir "$root/stress.tmp$n" 2> /dev/null &&
			bash -c 'echo $$ > "$0/cgroup.procs"; head -c 1048576 /dev/zero > /dev/null' \
				"$root/stress.tmp$n"
		cat "$dbg" "${dbg}_full" > /dev/null && count lru_gen_read
		tmp_id=$(lru_gen_query memcg-id "/stress.tmp$n" 2> /dev/null) || tmp_id=
		rmdir "$root/stress.tmp$n" 2> /dev/null && count memcg_churn
		# the id of a memcg just removed, maybe still dying, for the fuzzer
		[ -z "$tmp_id" ] || echo "$tmp_id" > "$work/dying"
		n=$((n + 1))
	done
) &

wait
echo "$caps0" > "$enabled"
echo "$ttl0" > "$ttl"
echo max > "$root/stress.a/memory.max"
echo max > "$root/stress.b/memory.max"
kinds="stream mmap_read anon thp hint numa task_move limit reclaim age evict drop_caches caps_flip fuzz_input fuzz_rejected fuzz_accepted lru_gen_read memcg_churn"
for k in $kinds; do printf '# %s %s\n' "$k" "$(counted "$k")"; done

# ---- checks -----------------------------------------------------------------
ops=0
for k in stream mmap_read anon thp hint numa task_move limit age drop_caches caps_flip; do
	[ "$(counted "$k")" -gt 0 ] && ops=$((ops + 1))
done
ktap_test_result "every workload and the aging ran (11 kinds)" [ "$ops" = 11 ]
[ -f "$work/bad" ] && sed 's/^/# /' "$work/bad"
ktap_test_result "every rejected write failed and changed nothing" [ ! -s "$work/bad" ]
ktap_test_result "enabled restored to $caps0" [ "$(cat "$enabled")" = "$caps0" ]

# the generation sizes of a memcg against memory.stat, exact when idle;
# memcg stats are flushed every 2 s
sizes_ok() { # sizes_ok G
	local id sums
	id=$(lru_gen_query memcg-id "/stress.$1") || return 1
	sums=$(lru_gen_query sizes "$id") || return 1
	awk -v s="$sums" '$1 == "inactive_anon" || $1 == "active_anon" { a += $2 }
		$1 == "inactive_file" || $1 == "active_file" { f += $2 }
		END { split(s, g, " "); printf "# stress.%s: generations anon %d file %d, memory.stat anon %d file %d\n",
			G, g[1], g[2], a / 4096, f / 4096; exit !(g[1] == a / 4096 && g[2] == f / 4096) }' \
		G="$1" "$root/stress.$1/memory.stat"
}
all_sizes_ok() { # every memcg, up to 5 tries 2 s apart (the stats flush)
	local try g ok
	for try in 1 2 3 4 5; do
		sleep 2
		ok=true
		for g in a b c; do sizes_ok "$g" || ok=false; done
		! $ok || return 0
		echo "# try $try: not yet"
	done
	return 1
}
ktap_test_result "idle memcgs: generations add up to memory.stat" all_sizes_ok

echo 3 > /proc/sys/vm/drop_caches
ktap_test_result "after drop_caches: generations add up to memory.stat" all_sizes_ok
file_left() { awk '$1 == "inactive_file" || $1 == "active_file" { f += $2 } END { print f / 4096 }' \
	"$root/stress.$1/memory.stat"; }
ktap_test_result "after drop_caches: at most 256 file pages left in stress.a ($(file_left a))" \
	[ "$(file_left a)" -le 256 ]

for g in a b c; do
	# a moved task may still be in one
	while read -r pid; do echo "$pid" > "$root/cgroup.procs"; done < "$root/stress.$g/cgroup.procs"
	rmdir "$root/stress.$g"
done
left=$(find "$root" -maxdepth 1 -name 'stress.*' | wc -l)
ktap_test_result "no memcg left behind ($left)" [ "$left" = 0 ]
rm -rf "$scratch/stream" "$scratch/hot.bin"
sync
echo 3 > /proc/sys/vm/drop_caches
sleep 3
free1=$(($(field MemFree) + $(pcp_kb)))
slab1=$(field Slab)
total=$(field MemTotal)
echo "# free (MemFree and per-cpu lists) $free0 kB before, $free1 kB after, MemTotal $total kB"
# where the memory went: every /proc/meminfo field that moved by 1 MiB, the
# slab caches that grew by 1 MiB, and with page_owner=on the stacks that
# hold 1 MiB more pages than at the start
echo "$meminfo0" | awk 'NR == FNR { v[$1] = $2; next }
	{ d = $2 - v[$1]; if (d >= 1024 || d <= -1024) printf "# meminfo %s %+d kB\n", $1, d }' - /proc/meminfo
slab_kb "$work/slab1"
awk 'NR == FNR { v[$1] = $2; next } { d = $2 - v[$1]; if (d >= 1024) print d, $1 }' \
	"$work/slab0" "$work/slab1" | sort -rn | head -8 | awk '{ printf "# slab %s %+d kB\n", $2, $1 }'
if [ -f "$work/owner0" ]; then
	owner_pages "$work/owner1"
	awk 'NR == FNR { v[$1] = $2; next } { d = $2 - v[$1]; if (d >= 256) print d, $1 }' \
		"$work/owner0" "$work/owner1" | sort -rn | head -5 |
		while read -r d h; do
			echo "# page_owner +$((d * 4)) kB allocated at:"
			awk -v h="handle: $h" 'BEGIN { RS = "" } {
				n = split($0, l, "\n")
				for (i = 1; i <= n; i++)
					if (l[i] == h) { for (j = 1; j < i && j <= 14; j++) print "#  " l[j]; exit }
			}' "$po/show_stacks_handles"
		done
fi
lost=$((free0 - free1 - (slab1 - slab0)))
ktap_test_result "free memory back within 1% of MemTotal, net of slab growth ($lost kB lost)" \
	[ "$lost" -le $((total / 100)) ]
allow=$((total / 100)) what="1% of MemTotal"
[ "$kasan" != kasan ] || allow=$((total / 32)) what="MemTotal / 32, KASAN's quarantine"
ktap_test_result "slab grew by $((slab1 - slab0)) kB, at most $allow kB ($what)" \
	[ $((slab1 - slab0)) -le "$allow" ]
swapped=$(awk 'NR > 1 { s += $4 } END { print s + 0 }' /proc/swaps)
ktap_test_result "no swap left in use ($swapped kB)" [ "$swapped" -le 1024 ]

printf '### STRESS-SUMMARY {"seconds":%d' "$secs"
for k in $kinds; do printf ',"%s":%d' "$k" "$(counted "$k")"; done
printf ',"checks_passed":%d,"checks_failed":%d,"free_before_kb":%d,"free_after_kb":%d}\n' \
	"$KTAP_CNT_PASS" "$KTAP_CNT_FAIL" "$free0" "$free1"
ktap_finished
