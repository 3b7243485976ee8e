#!/bin/sh
# shellcheck disable=SC2154 # p_KEY: set by eval from the KEY=VALUE arguments
# Guest side of 'make bench' (scripts/bench.sh): one measured cell per boot.
#   bench.sh probe
#	print the boot default of /sys/kernel/mm/lru_gen/enabled
#   bench.sh run WORKLOAD ENABLED [KEY=VALUE...]
#	set lru_gen/enabled to ENABLED ('default' keeps the boot value)
#	before any workload I/O, run WORKLOAD in a memcg and print
#	"### BENCH-RECORD {kernel_release, enabled, metrics}".
# The workload files are on the read-only disk at /mnt/data (device
# $DATA_DEV, from vm-run.sh -D); binaries and fio job files in /guest;
# vm-run.sh puts this script at /guest.sh (fio calls it back for "snap").
# Keys: memcg (MiB) for every workload but aging, and
#   zipf, uniform: job (file name in /guest/jobs)
#   hotstream, mmapstream, hotmove: k   hotmmap: k advice
#   idle: rounds passes stream_mib
#   anon: anon_mib hot_mib hot_pct ops swap (zram or disk), stream_mib
#     (optional: anon_churn -S)   fgcost: ops   jumps: k
#   kbuild: src (the host's kernel tree, a path without symlinks, seen at
#     /mnt/host from vm-run.sh -s /; or "disk": the tree is the data disk)
#     targets (directories of its tools/, or tinyconfig: the tree's x86_64
#     tinyconfig vmlinux, or tinyconfig/DIR: that directory of it;
#     separated by commas), swap (zram or disk)
#   fgswitch: ops rounds (bit 0x0010 of ENABLED switched on and off)
#   aging: sparse_gib thp (0 or 1) hot_mib passes, node_mib (optional:
#     aging_cost -n, anon memory of the aged node in the hot PUD)
#   sqlite: keys stride (the hot keys of /mnt/data/lookup.db) k
#   global: shape (stream or anon) budget_mib, and k for stream,
#     anon_mib hot_mib hot_pct ops for anon; memcg is the cell's, unlimited
#   probe: kib interval_ms passes (of the stream, in the sibling memcg)
#   any workload: pin (a node: the workload runs on its CPUs only)
set -eu
query=/guest/lru_gen_query
data=/mnt/data
# the memcg of the cell (enter_memcg), also for the "snap" runs fio starts
cg=${BENCH_CG:-}
# the dynamic loader for fio, sqlite_lookup and grep, with their libraries
ld="/guest/lib/ld-linux-x86-64.so.2 --library-path /guest/lib"
fio="$ld /guest/fio"
# scratch files of this boot (tmpfs), shared with the "snap" runs fio starts
work=${BENCH_WORK:-$(mktemp -d)}
export BENCH_WORK="$work"

fail() { echo "bench.sh: error: $*" >&2; exit 1; }

# seq_sum: the sum over its nodes of the cell memcg's max_seq, whose
# increments are aging steps; nothing unless lru_gen lists the memcg and
# every one of its nodes could be read (for probe, the parent memcg of the
# two that hold the pages: about 0)
seq_sum() {
	seq_id=$($query memcg-id "${cg#/sys/fs/cgroup}" 2> /dev/null) || return 0
	seq_nids=$($query nodes "$seq_id" 2> /dev/null) || return 0
	for seq_nid in $seq_nids; do
		$query max-seq "$seq_id" "$seq_nid" 2> /dev/null || echo fail
	done | awk '$1 !~ /^[0-9]+$/ { bad = 1 } { s += $1 } END { if (NR && !bad) print s }'
}

# snap pre|post: counters around fio's measured job (fio exec_prerun/postrun)
if [ "${1:-}" = snap ]; then
	{
		echo "ios $(awk '{ print $1 }' "/sys/block/$DATA_DEV/stat")"
		echo "seq $(seq_sum)"
		# page cache = file minus shmem (fio's shared memory pools)
		awk '$1 == "workingset_refault_file" { print "refaults", $2 }
			$1 == "file" { f = $2 } $1 == "shmem" { s = $2 }
			END { print "cache", f - s }' "$cg/memory.stat"
	} > "$work/snap.$2"
	exit 0
fi

if [ "${1:-}" = probe ]; then
	echo "### BENCH-PROBE enabled=$($query caps) release=$(uname -r)"
	exit 0
fi

if [ "${1:-}" != run ] || [ $# -lt 3 ]; then
	fail "usage: bench.sh probe | run WORKLOAD ENABLED [KEY=VALUE...]"
fi
workload=$2 want=$3
shift 3
for kv; do
	key=${kv%%=*}
	case $key in
	memcg | job | k | advice | rounds | passes | stream_mib | anon_mib | hot_mib | hot_pct | ops | swap | src | targets | sparse_gib | thp | node_mib | keys | stride | shape | budget_mib | kib | interval_ms | pin)
		eval "p_$key=\${kv#*=}" ;;
	*) fail "unknown parameter '$kv'" ;;
	esac
done

# pin=NODE: this shell, and so the workload, on the CPUs of NODE
if [ "${p_pin+set}" = set ]; then
	case $p_pin in '' | *[!0-9]*) fail "pin=$p_pin: a node number expected" ;; esac
	cpus=$(cat "/sys/devices/system/node/node$p_pin/cpulist" 2> /dev/null) ||
		fail "pin=$p_pin: no such node"
	taskset -p -c "$cpus" $$ > /dev/null || fail "cannot pin to node $p_pin (CPUs $cpus)"
fi

# The arm: set the caps first, and insist on reading them back.
if [ "$want" != default ]; then
	$query set-caps "$want" || fail "lru_gen/enabled does not take $want"
fi
caps=$($query caps)
echo "kernel $(uname -r), lru_gen/enabled $caps, data disk ${DATA_DEV:-none}"

# psi_totals FILE: "psi_some_us N" and "psi_full_us N" of a memory.pressure
psi_totals() {
	awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^total=/) {
			sub(/^total=/, "", $i); print "psi_" $1 "_us", $i } }' "$1"
}

# sys_snap: the system's reclaim counters (/proc/vmstat, with
# CONFIG_VM_EVENT_COUNTERS), working-set events, memory pressure stall
# totals (us) and file LRU sizes (KiB), as KEY VALUE lines
sys_snap() {
	awk '$1 ~ /^(pgscan|pgsteal)_(kswapd|direct)$/ ||
		$1 ~ /^workingset_(refault|activate|restore)_(anon|file)$/ { print $1, $2 }' /proc/vmstat
	psi_totals /proc/pressure/memory
	awk '$1 == "Active(file):" { print "active_file_kb", $2 }
		$1 == "Inactive(file):" { print "inactive_file_kb", $2 }' /proc/meminfo
}
sys_snap > "$work/sys.pre"

# new_memcg MIB|max SWAP [PID]: a fresh memcg of MIB MiB (max: no limit),
# of a unique name (lru_gen lists dying memcgs too), PID moved into it, as
# the cell's memcg $cg
new_memcg() {
	cg=$($query memcg-create bench ${3:+"$3"}) || fail "cannot create a memcg"
	export BENCH_CG="$cg"
	seq_sum > "$work/seq.start"
	if [ "$1" = max ]; then echo max; else echo $(($1 << 20)); fi > "$cg/memory.max"
	echo "$2" > "$cg/memory.swap.max"
}
enter_memcg() { new_memcg "$1" "$2" $$; } # enter_memcg MIB|max SWAP: this shell

snap() { awk -v k="$2" '$1 == k { print $2 }' "$work/snap.$1"; } # snap pre|post KEY

# memcg_metrics: the working-set events, the reclaim scans and steals and the
# memory pressure stall of the cell's memcg since it was created, and its file
# LRU sizes at the end (it starts empty), as JSON members: what PSI-based
# daemons (oomd, lmkd) see of the cell
memcg_metrics() {
	[ -n "$cg" ] && [ -f "$cg/memory.stat" ] || return 0
	awk '$1 ~ /^workingset_(refault|activate|restore)_(anon|file)$/ {
			sub(/^workingset_/, "", $1); printf ",\"ws_%s\":%d", $1, $2 }
		$1 ~ /^(pgscan|pgsteal)(_kswapd|_direct)?$/ { printf ",\"%s\":%d", $1, $2 }
		$1 ~ /^(in)?active_file$/ { printf ",\"%s_kb_after\":%d", $1, $2 / 1024 }' "$cg/memory.stat"
	aging_steps "$(cat "$work/seq.start" 2> /dev/null)" "$(seq_sum)" aging_steps
	[ -f "$cg/memory.pressure" ] || return 0
	psi_totals "$cg/memory.pressure" | awk '{ printf ",\"%s\":%d", $1, $2 }'
}

# sys_metrics: since the cell started (global: since mempin), the system's
# pgscan/pgsteal by kswapd and direct reclaim, working-set events and PSI,
# as sys_* JSON members, and its file LRU sizes before and after, for the
# cells that run without a memcg limit (global pressure)
sys_metrics() {
	sys_snap > "$work/sys.post"
	awk 'NR == FNR { pre[$1] = $2; next }
		$1 ~ /_kb$/ { printf ",\"sys_%s_before\":%d,\"sys_%s_after\":%d", $1, pre[$1], $1, $2; next }
		{ printf ",\"sys_%s\":%d", $1, $2 - pre[$1] }' "$work/sys.pre" "$work/sys.post"
}

# cell_swap: $dev, the swap device of swap=zram (default) or disk, which
# must be the only one in /proc/swaps
cell_swap() {
	case ${p_swap:-zram} in
	zram) dev=zram0 ;;
	disk) dev=${SWAP_DEV:-none} ;;
	*) fail "swap=$p_swap: zram or disk" ;;
	esac
	[ "$(awk 'NR > 1 { print $1 }' /proc/swaps)" = "/dev/$dev" ] ||
		fail "swap=${p_swap:-zram} wants /dev/$dev alone in /proc/swaps: $(awk 'NR > 1 { printf "%s ", $1 }' /proc/swaps)"
}

# aging_steps BEFORE AFTER NAME: ',"NAME":AFTER-BEFORE' if both are known
aging_steps() {
	[ -n "$1" ] && [ -n "$2" ] || return 0
	printf ',"%s":%d' "$3" $(($2 - $1))
}

record() { # record METRICS_JSON: with memcg_metrics() and sys_metrics() added
	m=$(printf '%s' "$1" | sed 's/}[[:space:]]*$//')
	echo "### BENCH-RECORD {\"kernel_release\":\"$(uname -r)\",\"enabled\":\"$caps\",\"metrics\":$m$(memcg_metrics)$(sys_metrics)}}"
}

# fio: warm-up job, then the measured job between two counter snapshots.
fio_cell() {
	[ -f "/guest/jobs/$p_job" ] || fail "no job file /guest/jobs/$p_job"
	echo 0 > "/sys/block/$DATA_DEV/queue/read_ahead_kb"
	{
		cat "/guest/jobs/$p_job"
		echo "exec_prerun=/bin/sh /guest.sh snap pre"
		echo "exec_postrun=/bin/sh /guest.sh snap post"
	} > "$work"/job.fio
	enter_memcg "$p_memcg" 0
	cd "$work"
	# shellcheck disable=SC2086
	$fio --output-format=terse --terse-version=3 "$work"/job.fio > "$work"/fio.out
	cat "$cg/memory.stat"
	# terse v3: 3 job name, 6 read KiB, 8 read IOPS, 9 runtime (ms)
	awk -F';' -v ios=$(($(snap post ios) - $(snap pre ios))) \
		-v ref=$(($(snap post refaults) - $(snap pre refaults))) -v cache="$(snap post cache)" '
		$3 == "measure" {
			reads = $6 / 4
			printf "{\"reads\":%d,\"dev_read_ios\":%d,\"miss_ratio\":%.5f,", reads, ios, ios / reads
			printf "\"refaults\":%d,\"refaults_per_read\":%.5f,", ref, ref / reads
			printf "\"iops\":%d,\"runtime_s\":%.2f,\"cache_pages\":%d}\n", $8, $9 / 1000, cache / 4096
			found = 1
		}
		END { exit !found }' "$work"/fio.out > "$work"/metrics || fail "no measured job in fio's output"
	m=$(cat "$work"/metrics)
	record "${m%\}}$(aging_steps "$(snap pre seq)" "$(snap post seq)" aging_steps_measured)}"
}

case $workload in
zipf | uniform)
	fio_cell ;;
hotstream | hotmmap | mmapstream | hotmove)
	enter_memcg "$p_memcg" 0
	opt=
	[ "$workload" != hotmmap ] || opt="-m $p_advice"
	[ "$workload" != mmapstream ] || opt=-S
	[ "$workload" != hotmove ] || opt="-M $data/hot2.bin"
	# shellcheck disable=SC2086 # $opt: no option, or an option and its value
	m=$(/guest/hotstream mix -H $data/hot.bin -s $data/stream -k "$p_k" -d "$DATA_DEV" $opt)
	cat "$cg/memory.stat"
	record "$m" ;;
idle)
	enter_memcg "$p_memcg" 0
	m=$(/guest/hotstream idle -H $data/hot.bin -s $data/stream -r "$p_rounds" \
		-p "$p_passes" -b "$p_stream_mib" -d "$DATA_DEV")
	cat "$cg/memory.stat"
	record "$m" ;;
fgcost)
	enter_memcg "$p_memcg" 0
	record "$(/guest/hotstream fit -H $data/hot.bin -n "$p_ops")" ;;
fgswitch)
	# ops/s with bit 0x0010 on and off, alternating inside this boot, by one
	# reader and by two readers of the same hot file at once
	[ $((caps & 0x10)) != 0 ] || fail "fgswitch: lru_gen/enabled $caps has no bit 0x0010 on"
	enter_memcg "$p_memcg" 0
	on=$((caps | 0x10)) off=$((caps & ~0x10))
	fit() { /guest/hotstream fit -H $data/hot.bin -n "$p_ops" | sed 's/.*"ops_per_s":\([0-9.]*\).*/\1/'; }
	fit2() { fit > "$work/fit.a" & fit > "$work/fit.b"; wait; awk '{ s += $1 } END { print s }' "$work/fit.a" "$work/fit.b"; }
	# measure r readers with the caps $1: ops/s
	run() { $query set-caps "$1" || fail "cannot set caps $1"; if [ "$2" = 1 ]; then fit; else fit2; fi; }
	: > "$work/switch"
	# on first in odd rounds, off first in even ones (ABBA)
	for i in $(seq 1 "$p_rounds"); do
		for r in 1 2; do
			if [ $((i % 2)) = 1 ]; then a=$(run $on $r); b=$(run $off $r)
			else b=$(run $off $r); a=$(run $on $r); fi
			echo "$r $a $b" >> "$work/switch"
		done
	done
	$query set-caps "$caps"
	cat "$work/switch"
	record "$(sort -n -k1 "$work/switch" | awk '
		function median(a, n,   i, j, t) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		{ n[$1]++; on[$1, n[$1]] = $2; off[$1, n[$1]] = $3; q[$1, n[$1]] = $2 / $3 }
		END {
			for (r = 1; r <= 2; r++) {
				lo = 1e9; hi = 0
				for (i = 1; i <= n[r]; i++) { x[i] = q[r, i]; lo = x[i] < lo ? x[i] : lo; hi = x[i] > hi ? x[i] : hi }
				m = median(x, n[r])
				for (i = 1; i <= n[r]; i++) x[i] = on[r, i]
				mon = median(x, n[r])
				for (i = 1; i <= n[r]; i++) x[i] = off[r, i]
				moff = median(x, n[r])
				printf "%s\"readers%d_on_off_ratio\":%.4f,\"readers%d_ratio_min\":%.4f,\"readers%d_ratio_max\":%.4f,\"readers%d_on_ops_per_s\":%.1f,\"readers%d_off_ops_per_s\":%.1f", r == 1 ? "{" : ",", r, m, r, lo, r, hi, r, mon, r, moff
			}
			printf ",\"rounds\":%d}\n", n[1]
		}')" ;;
jumps)
	# active_file before and after each of 12 forced aging steps while the
	# hot set is read under a stream: the largest move across one step, as
	# a fraction of the memcg's file LRU pages
	enter_memcg "$p_memcg" 0
	/guest/hotstream mix -H $data/hot.bin -s $data/stream -k "$p_k" -d "$DATA_DEV" > "$work/mix" &
	mix=$!
	id=$($query memcg-id "${cg#/sys/fs/cgroup}")
	stat() { awk '$1 == "active_file" { a = $2 } $1 == "inactive_file" { i = $2 } END { print a / 4096, (a + i) / 4096 }' "$cg/memory.stat"; }
	: > "$work/jumps"
	sleep 2
	for _ in $(seq 1 12); do
		kill -0 $mix 2> /dev/null || break
		before=$(stat)
		$query age "$id" 0 --force > /dev/null 2>&1 || true
		$query age "$id" 1 --force > /dev/null 2>&1 || true
		echo "${before%% *} $(stat)" >> "$work/jumps"
		sleep 1
	done
	wait $mix || true
	cat "$work/jumps"
	record "$(awk '{ d = $2 - $1; if (d < 0) d = -d; f = $3 ? d / $3 : 0; if (f > max) max = f; s += f; n++ }
		END { printf "{\"steps\":%d,\"active_file_max_jump\":%.4f,\"active_file_mean_jump\":%.4f}\n", n, max, n ? s / n : 0 }' "$work/jumps")" ;;
anon)
	cell_swap
	enter_memcg "$p_memcg" max
	m=$(/guest/anon_churn -s "$p_anon_mib" -H "$p_hot_mib" -P "$p_hot_pct" -n "$p_ops" -d "$dev" \
		${p_stream_mib:+-S "$p_stream_mib"})
	cat "$cg/memory.stat"
	record "$m" ;;
kbuild)
	# The host's compiler: chroot into the host's root (read-only 9p,
	# cache=loose), objects and temporary files on the scratch disk at its
	# temporary directory.  The tree is the host's over 9p, or (src=disk)
	# the data disk, whose reads pgpgin counts.  Every page the build reads
	# is charged to the memcg, the compiler's text included.  The tree is
	# bound to /mnt/scratch/src before the scratch disk goes over the
	# root's temporary directory ($ctmp), and the build reads it there: a
	# checkout under the host's temporary directory would be hidden at its
	# own path.
	root=/mnt/host
	ctmp=/tmp
	tree=$root$p_src
	[ "$p_src" != disk ] || tree=$data
	cell_swap
	for f in make gcc; do [ -x $root/usr/bin/$f ] || fail "no host root with $f at $root"; done
	[ -f "$tree/tools/lib/bpf/Makefile" ] || fail "no kernel tree at $tree"
	mkdir -p /mnt/scratch/src
	if ! { mount --bind /dev $root/dev && mount -t proc proc $root/proc &&
		mount --bind "$tree" /mnt/scratch/src && mount -o rbind /mnt/scratch "$root$ctmp"; }; then
		fail "cannot set up the chroot"
	fi
	enter_memcg "$p_memcg" max
	vm_keys='^(pgpgin|pswpin|pswpout)$'
	awk -v k="$vm_keys" '$1 ~ k' /proc/vmstat > "$work/vm.pre"
	t0=$(cut -d' ' -f1 /proc/uptime)
	# the chroot's shell expands $1, $2, $t, $goal, $k and $TMPDIR (the
	# scratch disk)
	# shellcheck disable=SC2016
	chroot $root /usr/bin/env -i PATH=/usr/bin:/bin HOME="$ctmp" LC_ALL=C TMPDIR="$ctmp" /bin/sh -ec '
		out=$TMPDIR/kbuild
		for t in $(echo "$2" | tr , " "); do
			mkdir -p "$out/$t"
			case $t in tinyconfig) goal=vmlinux ;; tinyconfig/*) goal=${t#*/}/ ;; *) goal= ;; esac
			if [ -n "$goal" ]; then
				k="make -s -C $TMPDIR/$1 O=$out/$t ARCH=x86_64"
				{ $k tinyconfig > "$out.log" 2>&1 && $k -j2 "$goal" >> "$out.log" 2>&1; } ||
					{ tail -20 "$out.log"; exit 1; }
			else
				make -s -j2 -C "$TMPDIR/$1/tools/$t" O="$out/$t" > "$out.log" 2>&1 ||
					{ tail -20 "$out.log"; exit 1; }
			fi
			echo "built $t: $(find "$out/$t" -name "*.o" | wc -l) objects"
		done' sh src "$p_targets" || fail "the build failed"
	t1=$(cut -d' ' -f1 /proc/uptime)
	umount "$root$ctmp/src" "$root$ctmp" /mnt/scratch/src $root/proc $root/dev
	awk -v k="$vm_keys" '$1 ~ k' /proc/vmstat > "$work/vm.post"
	cat "$cg/memory.stat" "$cg/memory.events" "$cg/cpu.stat"
	# pgpgin (KiB read from block devices, swap included), pswpin and
	# pswpout (pages) of the guest, which runs nothing else; user and
	# system time of the memcg's tasks
	record "$(awk -v t0="$t0" -v t1="$t1" -v peak="$(cat "$cg/memory.peak")" '
		FILENAME ~ /memory.stat$/ { v[$1] = $2 } FILENAME ~ /memory.events$/ { e[$1] = $2 }
		FILENAME ~ /cpu.stat$/ { c[$1] = $2 }
		FILENAME ~ /vm.pre$/ { p[$1] = $2 } FILENAME ~ /vm.post$/ { d[$1] = $2 - p[$1] }
		END {
			printf "{\"build_s\":%.1f,\"user_s\":%.1f,\"sys_s\":%.1f,", t1 - t0,
				c["user_usec"] / 1e6, c["system_usec"] / 1e6
			printf "\"refaults_file\":%d,\"refaults_anon\":%d,", v["workingset_refault_file"],
				v["workingset_refault_anon"]
			printf "\"pgmajfault\":%d,\"activate_file\":%d,\"restore_file\":%d,", v["pgmajfault"],
				v["workingset_activate_file"], v["workingset_restore_file"]
			printf "\"pgscan\":%d,\"pgsteal\":%d,\"pgpgin_kb\":%d,", v["pgscan"], v["pgsteal"],
				d["pgpgin"]
			printf "\"swap_read_pages\":%d,\"swap_write_pages\":%d,", d["pswpin"], d["pswpout"]
			printf "\"peak_mib\":%.1f,\"oom_kill\":%d}\n", peak / 1048576, e["oom_kill"]
		}' "$cg/memory.stat" "$cg/memory.events" "$cg/cpu.stat" "$work/vm.pre" "$work/vm.post")" ;;
sqlite)
	# hot key lookups, k per 64 KiB that GNU grep reads of the stream, which
	# it reads once (exit 1: no match, all read), in one memcg; both run
	# with the guest's copies of their libraries
	enter_memcg "$p_memcg" 0
	# the shell of the stream expands $1 and $2
	# shellcheck disable=SC2016,SC2086 # $ld: the loader and its option
	m=$($ld /guest/sqlite_lookup -D $data/lookup.db -n "$p_keys" -t "$p_stride" -k "$p_k" \
		-d "$DATA_DEV" -- sh -c '$1 /guest/grep -r -q "no such line" "$2"; [ $? = 1 ]' \
		sh "$ld" $data/stream)
	cat "$cg/memory.stat"
	record "$m" ;;
global)
	# No memcg limit: mempin locks the initramfs's files and the guest's
	# free memory but budget_mib, and kswapd and direct reclaim make room
	# for the workload.  The counters
	# of the record start once the memory is pinned.
	/guest/mempin -r -l "$p_budget_mib" > "$work/pin" &
	pin=$!
	# the OOM killer's first choice otherwise: the cell would lose its pressure
	echo -1000 > /proc/$pin/oom_score_adj
	until [ -s "$work/pin" ]; do
		kill -0 $pin 2> /dev/null || fail "mempin -l $p_budget_mib failed"
		sleep 1
	done
	cat "$work/pin"
	pin_free=$(sed -n 's/.*free \([0-9]*\) MiB/\1/p' "$work/pin")
	sys_snap > "$work/sys.pre"
	case $p_shape in
	stream)
		enter_memcg max 0
		m=$(/guest/hotstream mix -H $data/hot.bin -s $data/stream -k "$p_k" -d "$DATA_DEV") ;;
	anon)
		enter_memcg max max
		m=$(/guest/anon_churn -s "$p_anon_mib" -H "$p_hot_mib" -P "$p_hot_pct" -n "$p_ops" -d zram0) ;;
	*) fail "shape=$p_shape: stream or anon" ;;
	esac
	kill -0 $pin 2> /dev/null || fail "mempin died during the cell"
	kill $pin
	cat /proc/vmstat /proc/pressure/memory
	record "${m%\}},\"pin_free_mib\":$pin_free}" ;;
probe)
	# A parent memcg of memcg MiB with two children: this shell, which
	# probes the hot file, and the stream's, which reads every stream file
	# passes times.  Records cover both (memory.stat is hierarchical).
	new_memcg "$p_memcg" 0
	echo +memory > "$cg/cgroup.subtree_control"
	mkdir "$cg/probe" "$cg/stream"
	echo $$ > "$cg/probe/cgroup.procs"
	# the stream's shell expands $1 and $2
	# shellcheck disable=SC2016
	m=$(/guest/hotstream probe -H $data/hot.bin -b "$p_kib" -i "$p_interval_ms" -d "$DATA_DEV" \
		-c "${cg#/sys/fs/cgroup}/stream" -- sh -c '
			for _ in $(seq 1 "$1"); do cat "$2"/* > /dev/null; done' sh "$p_passes" $data/stream)
	cat "$cg/memory.stat"
	record "$m" ;;
aging)
	# aging_cost makes its own memcg (no limit); keep its per-pass metrics
	thp_opt=
	[ "${p_thp:-0}" = 1 ] && thp_opt=-t
	# shellcheck disable=SC2086 # thp_opt is empty or one word
	line=$(/guest/aging_cost $thp_opt -s "$p_sparse_gib" -H "$p_hot_mib" -n "${p_node_mib:-0}" \
		-p "$p_passes" -r 1 -e "$caps")
	echo "$line"
	record "$(echo "$line" | tr -d '{}' | tr ',' '\n' | awk -F: '
		$1 ~ /aging_us|_per_pass/ && $2 >= 0 { printf "%s%s:%s", n++ ? "," : "{", $1, $2 }
		END { print "}" }')" ;;
*)
	fail "unknown workload '$workload'" ;;
esac
