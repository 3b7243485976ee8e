#!/bin/bash
# 'make bench': classic LRU, stock MGLRU and the series side by side, one
# fresh VM boot per measured cell, arms interleaved (A B C A B C ...).
#
# Kernels: the unpatched base (tag 'base', worktree $BUILD/base-tree, built
# in $BUILD/out-bench-base) and the tip of the series ($TREE, in
# $BUILD/out-bench), same config (scripts/kernel.sh bench), same initramfs,
# data disk image and qemu command line.  Arms (lru_gen/enabled):
#   classic  base kernel, 0x0000          mglru  base kernel, 0x0007
#   series   series kernel, its boot default
#   fg-off   series, default minus 0x0010 (frequency-guided promotion)
#   pud-off  series, default minus 0x0008 (PUD Bloom filter)
# fg-off (pud-off) is skipped with a note if the series kernel has no bit
# 0x0010 (0x0008) on at boot, and so is fgswitch without bit 0x0010.
#
# Workloads (arms; sizes at the default / QUICK=1 scale in the README):
#   zipf      fio zipf THETAS, 4 KiB buffered random reads of a FILE_MIB file
#             in a MEMCG_MIB memcg: warm-up job of 4 requests per page of
#             the file (at least ZIPF_IOS), so that the measured job of
#             ZIPF_IOS requests sees the steady state, not first references
#   uniform   the same with uniform random offsets (miss ~ 1 - C/N)
#   hotstream K random hot 4 KiB reads per 64 KiB of a one-shot stream (KS)
#   hotmmap   the same, each hot read a load through a shared mapping (KS),
#             madvise()d MMAP_ADVICES (normal: reads around a miss; random:
#             no read-around, and the kernel ignores the mapping's accessed
#             bits, see vma_has_recency())
#   mmapstream hotstream with the stream read through a shared mapping of
#             each file, one load per 4 KiB, instead of read()s (KS)
#   idle      hot file read 4 times, then idle while 1.25 x MEMCG_MIB
#             stream by; residency per round
#   hotmove   hotstream at K=4 whose hot reads move to a second hot file,
#             never read before, in the middle of the stream: that file's
#             hit ratio, in all and per eighth of the second half, and the
#             share of the first file still cached at the end of each (KS)
#             (zipf, uniform, hotstream, hotmmap, mmapstream, idle, hotmove:
#             classic mglru series fg-off)
#   anon      random touches of 1.5 x MEMCG_MIB of anon memory, 90 % of
#             them in a third of it, swap on zram or a virtio disk (SWAPS);
#             and a hot set of 5/8 x MEMCG_MIB with half of the operations,
#             the other half writing a one-shot anon stream (anon_churn -S)
#             (all arms)
#   kbuild    a build of KBUILD_TARGETS, directories of the base tree's
#             tools/, or its x86_64 tinyconfig vmlinux (tinyconfig) or a
#             directory of it (tinyconfig/mm, /kernel, /fs), with the host's gcc
#             (-j2), chrooted into the host's root over 9p, in a
#             KBUILD_MEMCG_MIB memcg with swap on zram or a disk
#             (KBUILD_SWAPS): per build the columns of the FG RFC (time,
#             system time, pgpgin, swap-ins and -outs, refaults per type),
#             major faults and PSI.  The tools/ targets read the tree over
#             9p, tinyconfig* from a disk image of it (all arms: pud-off
#             shows what the PUD Bloom filter does to a build)
#   aging     lab/aging_cost: aging a node that holds none of the memory,
#             sparse small pages and sparse THPs
#             (mglru series pud-off)
#   fgcost    random reads of a hot file that fits: ops/s, the cost of a
#             page cache hit (classic mglru series fg-off)
#   fgswitch  the same inside one boot, by 1 and by 2 readers of the file,
#             with bit 0x0010 switched on and off 20 times, ABBA (series)
#   sqlite    lookups of hot keys (HOT_MIB of leaf pages) of an SQLITE_MIB
#             SQLite database while GNU 'grep -r' reads the stream once, 2
#             lookups per 64 KiB the disk reads, in a MEMCG_MIB memcg:
#             latency p50/p99, the database's page hit ratio and misses per
#             lookup, the stream's time
#   global    no memcg limit: the initramfs and the guest's free memory but
#             MEMCG_MIB are locked (lab/mempin), so kswapd and direct
#             reclaim do the work; shapes
#             "stream" (hotstream at K=4) and "anon" (anon's churn, zram)
#   probe     a latency probe: the first 64 KiB of the hot file read every
#             10 ms in one memcg while a sibling streams the stream files
#             PROBE_PASSES times, both under a parent of MEMCG_MIB: probe
#             latency p50/p99 and probes that missed
#             (sqlite, global, probe: classic mglru series fg-off)
#   jumps     hotstream at K=4 with forced aging steps: how much active_file
#             of memory.stat moves across one step (mglru series fg-off)
#
# Environment (all optional):
#   WORKLOADS  subset of the list above (default: all)
#   ARMS       subset of "classic mglru series fg-off pud-off" (default: all;
#              each workload runs on the arms that make sense for it)
#   REPS       repetitions per arm (default 3, QUICK 1)
#   QUICK=1    smaller sizes, fewer cells: about 11 minutes with the kernels
#              built
#   BENCH_BUILD=0  use the existing bzImages, do not run kbuild
#   MEMCG_MIB FILE_MIB HOT_MIB STREAM_MIB THETAS KS ZIPF_IOS   the scale
#   SQLITE_MIB the database (default 2 x MEMCG_MIB, at least 2 x HOT_MIB)
#   PROBE_PASSES  probe's passes over the stream (default 8)
#   MMAP_ADVICES  hotmmap's advice, "normal", "random" or both (default)
#   SWAPS      anon's swap, "zram", "disk" or both (default)
#   KBUILD_MEMCG_MIB  kbuild's memcg (default 192, QUICK 80)
#   KBUILD_TARGETS  of objtool, lib/bpf, power/x86/turbostat, tinyconfig,
#              tinyconfig/mm, tinyconfig/kernel and tinyconfig/fs (default
#              "objtool lib/bpf", QUICK "objtool")
#   KBUILD_SWAPS  kbuild's swap, "zram", "disk" or both (default zram)
#   MEM_MIB (guest memory, 2048)  ZRAM_MIB (512)  SWAP_MIB (swap disk, 512)
#   DISK_MIB (data disk size, default: fits the file set)
#   CELL_TIMEOUT (seconds per boot)
#   BENCH_APPEND  more kernel command line for every boot, e.g., a
#              parameter of an experiment kernel
#   PIN_NODE   run fio (zipf, uniform) on the CPU of this guest node (0 or
#              1): its page cache is then allocated on that node, which
#              has room for it (nothing binds the memory), and stays in
#              that node's LRU; unpinned (the default, as in the lab's runs
#              so far), fio moves between the CPUs and its cache splits
#              over both nodes' LRUs, which age apart; the cells' params
#              gain "pin_node"
# Output: one JSON line per cell appended to $BUILD/bench/results.jsonl,
# logs of every cell in $BUILD/bench/logs/RUN_ID/, fio job files in
# $BUILD/bench/jobs/; then scripts/report.sh if it exists.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"

ALL_WORKLOADS="zipf uniform hotstream hotmmap mmapstream idle hotmove anon kbuild aging fgcost fgswitch jumps sqlite global probe"
ALL_ARMS="classic mglru series fg-off pud-off"
quick=${QUICK:-0}
if [ "$quick" = 1 ]; then
	: "${REPS:=1}" "${MEMCG_MIB:=32}" "${HOT_MIB:=8}" "${STREAM_MIB:=128}"
	: "${THETAS:=0.9}" "${KS:=4}" "${ZIPF_IOS:=20000}" "${CELL_TIMEOUT:=300}"
	: "${PROBE_PASSES:=8}"
	: "${KBUILD_TARGETS:=objtool}" "${KBUILD_MEMCG_MIB:=80}"
	aging_sparse=16 aging_passes=30 fit_ops=50000 anon_ops=200000 idle_rounds=2
else
	: "${REPS:=3}" "${MEMCG_MIB:=64}" "${HOT_MIB:=16}" "${STREAM_MIB:=256}"
	: "${THETAS:=0.8 0.9 1.1 1.2}" "${KS:=2 4 8}" "${ZIPF_IOS:=50000}" "${CELL_TIMEOUT:=900}"
	: "${PROBE_PASSES:=8}"
	: "${KBUILD_TARGETS:=objtool lib/bpf}" "${KBUILD_MEMCG_MIB:=192}"
	aging_sparse=64 aging_passes=100 fit_ops=200000 anon_ops=400000 idle_rounds=3
fi
WORKLOADS=${WORKLOADS-$ALL_WORKLOADS}
MMAP_ADVICES=${MMAP_ADVICES-normal random}
SWAPS=${SWAPS-zram disk}
ARMS=${ARMS-$ALL_ARMS}
: "${MEM_MIB:=2048}" "${ZRAM_MIB:=512}" "${SWAP_MIB:=512}"
BENCH_BUILD=${BENCH_BUILD:-1}

# ---- parameters: every check before anything runs --------------------------
uint() { # uint NAME VALUE MIN
	case $2 in '' | *[!0-9]*) die "$1='$2': not a number" ;; esac
	[ "$2" -ge "$3" ] || die "$1=$2: must be at least $3"
}
for w in $WORKLOADS; do
	case " $ALL_WORKLOADS " in *" $w "*) ;; *) die "WORKLOADS: unknown workload '$w' (known: $ALL_WORKLOADS)" ;; esac
done
for a in $ARMS; do
	case " $ALL_ARMS " in *" $a "*) ;; *) die "ARMS: unknown arm '$a' (known: $ALL_ARMS)" ;; esac
done
[ -n "$WORKLOADS" ] || die "WORKLOADS is empty"
[ -n "$ARMS" ] || die "ARMS is empty"
uint REPS "$REPS" 1
PIN_NODE=${PIN_NODE:-}
case $PIN_NODE in '' | 0 | 1) ;; *) die "PIN_NODE='$PIN_NODE': 0 or 1 (the guest's nodes)" ;; esac
case " $WORKLOADS " in *" zipf "* | *" uniform "*) ;; *)
	[ -z "$PIN_NODE" ] || note "PIN_NODE=$PIN_NODE: no zipf or uniform cell to pin" ;;
esac
uint MEMCG_MIB "$MEMCG_MIB" 16
FILE_MIB=${FILE_MIB:-$((4 * MEMCG_MIB))}
uint FILE_MIB "$FILE_MIB" 1
uint HOT_MIB "$HOT_MIB" 1
uint STREAM_MIB "$STREAM_MIB" 8
# the stream is cut into files of this size
STREAM_FILE_MIB=$((STREAM_MIB >= 256 ? 8 : 4))
uint ZIPF_IOS "$ZIPF_IOS" 1000
SQLITE_MIB=${SQLITE_MIB:-$((2 * MEMCG_MIB))}
uint SQLITE_MIB "$SQLITE_MIB" 1
case " $WORKLOADS " in *" sqlite "*)
	[ "$SQLITE_MIB" -ge $((2 * HOT_MIB)) ] ||
		die "SQLITE_MIB=$SQLITE_MIB: must be at least 2 x HOT_MIB ($((2 * HOT_MIB)))" ;;
esac
uint PROBE_PASSES "$PROBE_PASSES" 1
uint MEM_MIB "$MEM_MIB" 512
uint ZRAM_MIB "$ZRAM_MIB" 0
uint SWAP_MIB "$SWAP_MIB" 1
uint KBUILD_MEMCG_MIB "$KBUILD_MEMCG_MIB" 64
uint CELL_TIMEOUT "$CELL_TIMEOUT" 60
case $BENCH_BUILD in 0 | 1) ;; *) die "BENCH_BUILD=$BENCH_BUILD: 0 or 1" ;; esac
case $quick in 0 | 1) ;; *) die "QUICK=$quick: 0 or 1" ;; esac
for t in $THETAS; do
	echo "$t" | grep -qE '^[0-9]+(\.[0-9]+)?$' || die "THETAS: '$t' is not a number"
	awk -v t="$t" 'BEGIN { exit !(t > 0 && t != 1) }' || die "THETAS: $t (fio needs theta > 0 and != 1)"
done
for k in $KS; do
	uint KS "$k" 1
	[ "$k" -le 1024 ] || die "KS=$k: at most 1024"
done
[ $((MEM_MIB % 2)) = 0 ] || die "MEM_MIB=$MEM_MIB: must be even (two NUMA nodes)"
[ -n "$MMAP_ADVICES" ] || die "MMAP_ADVICES is empty"
for a in $MMAP_ADVICES; do
	case $a in normal | random) ;; *) die "MMAP_ADVICES: '$a' is not normal or random" ;; esac
done
[ -n "$SWAPS" ] || die "SWAPS is empty"
for a in $SWAPS; do
	case $a in zram | disk) ;; *) die "SWAPS: '$a' is not zram or disk" ;; esac
done

# Memory: the kernel, the initramfs (fio and its libraries, ~100 MiB) and
# the rest of the guest need about 384 MiB besides the largest memcg.
anon_mib=$((MEMCG_MIB * 3 / 2)) anon_hot=$((MEMCG_MIB / 2))
# anon's stream shape: a hot set of 5/8 of the memcg, half of the touches;
# the other half of the warm-up's and the measured operations (5/4 x ops)
# write the stream, which gets 10 % more pages than that
astream_hot=$((MEMCG_MIB * 5 / 8)) astream_ops=$((anon_ops / 4))
astream_mib=$((astream_ops * 5 * 11 / (4 * 2 * 10 * 256) + 1))
anon_swap=$((astream_hot + astream_mib))
[ "$anon_swap" -ge "$anon_mib" ] || anon_swap=$anon_mib
[ $((MEMCG_MIB + 384)) -le "$MEM_MIB" ] ||
	die "MEMCG_MIB=$MEMCG_MIB does not fit a guest of MEM_MIB=$MEM_MIB (needs MEMCG_MIB + 384)"
[ "$HOT_MIB" -lt "$MEMCG_MIB" ] || die "HOT_MIB=$HOT_MIB must be smaller than MEMCG_MIB=$MEMCG_MIB"
idle_mib=$((MEMCG_MIB * 5 / 4))
case " $WORKLOADS " in *" idle "*)
	[ $((idle_rounds * idle_mib)) -le "$STREAM_MIB" ] ||
		die "STREAM_MIB=$STREAM_MIB: idle needs $idle_rounds x $idle_mib MiB of stream" ;;
esac
case " $WORKLOADS " in *" anon "*)
	case " $SWAPS " in *" zram "*)
		[ "$ZRAM_MIB" -ge "$anon_swap" ] || die "ZRAM_MIB=$ZRAM_MIB: anon needs at least $anon_swap"
		[ $((MEMCG_MIB + ZRAM_MIB / 2 + 384)) -le "$MEM_MIB" ] ||
			die "MEMCG_MIB + ZRAM_MIB / 2 + 384 must fit MEM_MIB=$MEM_MIB" ;;
	esac
	case " $SWAPS " in *" disk "*)
		[ "$SWAP_MIB" -ge "$anon_swap" ] || die "SWAP_MIB=$SWAP_MIB: anon needs at least $anon_swap" ;;
	esac ;;
esac
case " $WORKLOADS " in *" global "*)
	[ "$ZRAM_MIB" -ge "$anon_mib" ] || die "ZRAM_MIB=$ZRAM_MIB: global's anon shape needs at least $anon_mib"
	[ $((MEMCG_MIB + ZRAM_MIB / 2 + 384)) -le "$MEM_MIB" ] ||
		die "MEMCG_MIB + ZRAM_MIB / 2 + 384 must fit MEM_MIB=$MEM_MIB (global)" ;;
esac
# kbuild: the base tree on the host, read by the guest over 9p, or for
# tinyconfig from a disk image of it, so that pgpgin counts its reads
kbuild_src=$(realpath -m "$BUILD/base-tree")
KBUILD_SWAPS=${KBUILD_SWAPS-zram}
kbuild_img=
case " $WORKLOADS " in *" kbuild "*)
	[ -n "$KBUILD_SWAPS" ] || die "KBUILD_SWAPS is empty"
	for sw in $KBUILD_SWAPS; do
		case $sw in zram | disk) ;; *) die "KBUILD_SWAPS: '$sw' is not zram or disk" ;; esac
	done
	case " $KBUILD_SWAPS " in *" zram "*)
		[ "$ZRAM_MIB" -gt 0 ] || die "ZRAM_MIB=0: KBUILD_SWAPS has zram" ;;
	esac
	[ $((KBUILD_MEMCG_MIB + ZRAM_MIB / 2 + 384)) -le "$MEM_MIB" ] ||
		die "KBUILD_MEMCG_MIB + ZRAM_MIB / 2 + 384 must fit MEM_MIB=$MEM_MIB"
	command -v gcc > /dev/null || die "gcc missing: run 'make setup'"
	[ -n "$KBUILD_TARGETS" ] || die "KBUILD_TARGETS is empty"
	for t in $KBUILD_TARGETS; do
		case $t in objtool | lib/bpf | power/x86/turbostat) ;;
		tinyconfig | tinyconfig/mm | tinyconfig/kernel | tinyconfig/fs)
			b=$(git -C "$TREE" rev-parse --short=12 base 2> /dev/null) ||
				die "KBUILD_TARGETS=$t reads an image of tag base, which $TREE lacks: run 'make tree'"
			kbuild_img=$BUILD/bench/base-tree-$b.img ;;
		*) die "KBUILD_TARGETS: '$t' is not objtool, lib/bpf, power/x86/turbostat, tinyconfig or tinyconfig/{mm,kernel,fs}" ;;
		esac
	done
	[ "$BENCH_BUILD" = 1 ] || [ -d "$kbuild_src/tools/lib/bpf" ] ||
		die "BENCH_BUILD=0 but no base tree at $kbuild_src (kbuild builds its tools/)" ;;
esac
files_mib=$((FILE_MIB + 2 * HOT_MIB + STREAM_MIB / STREAM_FILE_MIB * STREAM_FILE_MIB + SQLITE_MIB + SQLITE_MIB / 32))
need_mib=$((files_mib + files_mib / 16 + 32))	# ext4 metadata and slack
DISK_MIB=${DISK_MIB:-$need_mib}
uint DISK_MIB "$DISK_MIB" 1
[ "$DISK_MIB" -ge "$need_mib" ] ||
	die "the file set ($files_mib MiB: data $FILE_MIB, hot $HOT_MIB, stream $STREAM_MIB, sqlite $SQLITE_MIB) does not fit DISK_MIB=$DISK_MIB (needs $need_mib)"

series_img=$BUILD/out-bench/arch/x86/boot/bzImage
base_img=$BUILD/out-bench-base/arch/x86/boot/bzImage
if [ "$BENCH_BUILD" = 0 ]; then
	[ -f "$series_img" ] || die "BENCH_BUILD=0 but no $series_img"
	[ -f "$base_img" ] || die "BENCH_BUILD=0 but no $base_img"
fi
command -v fio > /dev/null || die "fio missing: run 'make setup'"
command -v sqlite3 > /dev/null || die "sqlite3 missing: run 'make setup'"
[ -f /usr/include/sqlite3.h ] || die "libsqlite3-dev missing: run 'make setup'"

dir=$BUILD/bench
img=$dir/data-f${FILE_MIB}-h${HOT_MIB}x2-s${STREAM_MIB}-q${SQLITE_MIB}-d${DISK_MIB}.img
free_mib=$(df -Pm "$TOP" | awk 'NR == 2 { print $4 }')
[ -f "$img" ] || [ "$free_mib" -ge $((2 * DISK_MIB + 1024)) ] ||
	die "$free_mib MiB free, the data disk needs $((2 * DISK_MIB + 1024))"
mkdir -p "$dir/jobs" "$BUILD/logs"
exec 9> "$dir/.lock"
flock -n 9 || die "another bench run holds $dir/.lock"

# ---- the cells: "workload|params json|trace|arms|guest args|vm-run options" --
# The PUD filter only changes page-table walks: pud-off runs on aging and,
# as checks, on anon and kbuild.  Frequency-guided promotion changes what
# the page cache keeps: fg-off runs on every page-cache cell, anon and kbuild.
pc_arms="classic mglru series fg-off"
groups=()
fio_job() { # fio_job NAME DISTRIBUTION WARM_IOS IOS: write jobs/NAME.fio
	local f=$dir/jobs/$1.fio
	cat > "$f.tmp" <<-EOF
	; scripts/bench.sh: 4 KiB buffered random reads of the data disk's file,
	; a warm-up job then the measured job (same file, next job's stream)
	[global]
	filename=/mnt/data/data.bin
	size=${FILE_MIB}m
	io_size=1t
	bs=4k
	rw=randread
	ioengine=psync
	direct=0
	norandommap
	randrepeat=1
	random_distribution=$2
	fadvise_hint=1
	invalidate=0
	numjobs=1
	[warm]
	number_ios=$3
	[measure]
	stonewall
	number_ios=$4
	EOF
	mv "$f.tmp" "$f"
}
for w in $WORKLOADS; do
	case $w in
	zipf)
		for t in $THETAS; do
			# steady state: 4 requests per page of the file in the
			# warm-up (50 k over 65 k pages left every online policy
			# near its cold-start miss ratio at theta 0.8)
			warm=$((4 * FILE_MIB * 256)) ios=$ZIPF_IOS
			[ "$warm" -ge "$ZIPF_IOS" ] || warm=$ZIPF_IOS
			# The center 0.5 fixes where fio puts the hottest page: without
			# one, fio 3.33 draws it from the job's seed, which differs
			# between the two jobs, and the measured job's hot set would be
			# one the warm-up never read.
			job=zipf-$t-c0.5-f$FILE_MIB-w$warm-n$ios
			fio_job "$job" "zipf:$t:0.5" "$warm" "$ios"
			groups+=("zipf|{\"theta\":$t,\"file_mib\":$FILE_MIB,\"memcg_mib\":$MEMCG_MIB,\"warm_ios\":$warm,\"ios\":$ios}|jobs/$job.fio|$pc_arms|job=$job.fio memcg=$MEMCG_MIB")
		done ;;
	uniform)
		# the warm-up must read more distinct pages than fit the memcg
		warm=$((ZIPF_IOS / 2)) ios=$((ZIPF_IOS * 3 / 10))
		job=uniform-f$FILE_MIB-w$warm-n$ios
		fio_job "$job" random "$warm" "$ios"
		groups+=("uniform|{\"file_mib\":$FILE_MIB,\"memcg_mib\":$MEMCG_MIB,\"warm_ios\":$warm,\"ios\":$ios}|jobs/$job.fio|$pc_arms|job=$job.fio memcg=$MEMCG_MIB") ;;
	hotstream)
		for k in $KS; do
			groups+=("hotstream|{\"k\":$k,\"hot_mib\":$HOT_MIB,\"stream_mib\":$STREAM_MIB,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|k=$k memcg=$MEMCG_MIB")
		done ;;
	hotmove)
		groups+=("hotmove|{\"k\":4,\"hot_mib\":$HOT_MIB,\"stream_mib\":$STREAM_MIB,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|k=4 memcg=$MEMCG_MIB") ;;
	mmapstream)
		for k in $KS; do
			groups+=("mmapstream|{\"k\":$k,\"hot_mib\":$HOT_MIB,\"stream_mib\":$STREAM_MIB,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|k=$k memcg=$MEMCG_MIB")
		done ;;
	hotmmap)
		for a in $MMAP_ADVICES; do
			for k in $KS; do
				groups+=("hotmmap|{\"k\":$k,\"advice\":\"$a\",\"hot_mib\":$HOT_MIB,\"stream_mib\":$STREAM_MIB,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|k=$k advice=$a memcg=$MEMCG_MIB")
			done
		done ;;
	idle)
		groups+=("idle|{\"hot_mib\":$HOT_MIB,\"stream_mib\":$idle_mib,\"rounds\":$idle_rounds,\"passes\":4,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|rounds=$idle_rounds passes=4 stream_mib=$idle_mib memcg=$MEMCG_MIB") ;;
	anon)
		for sw in $SWAPS; do
			if [ "$sw" = zram ]; then size=$ZRAM_MIB opts=; else size=$SWAP_MIB opts="-z 0 -w $SWAP_MIB"; fi
			groups+=("anon|{\"anon_mib\":$anon_mib,\"hot_mib\":$anon_hot,\"hot_pct\":90,\"ops\":$anon_ops,\"memcg_mib\":$MEMCG_MIB,\"swap\":\"$sw\",\"swap_mib\":$size}||$ALL_ARMS|anon_mib=$anon_mib hot_mib=$anon_hot hot_pct=90 ops=$anon_ops memcg=$MEMCG_MIB swap=$sw|$opts")
			# a hot set that fits, half of the touches, while the other
			# half write a one-shot stream: the hot set's swap-ins
			groups+=("anon|{\"anon_mib\":$astream_hot,\"hot_mib\":$astream_hot,\"hot_pct\":50,\"ops\":$astream_ops,\"stream_mib\":$astream_mib,\"memcg_mib\":$MEMCG_MIB,\"swap\":\"$sw\",\"swap_mib\":$size}||$ALL_ARMS|anon_mib=$astream_hot hot_mib=$astream_hot hot_pct=50 ops=$astream_ops stream_mib=$astream_mib memcg=$MEMCG_MIB swap=$sw|$opts")
		done ;;
	kbuild)
		targets=$(echo "$KBUILD_TARGETS" | xargs | tr ' ' ,)
		src=$kbuild_src opts="-s / -d 512"
		[ -z "$kbuild_img" ] || src=disk opts="-s / -d 1024 -D $kbuild_img"
		for sw in $KBUILD_SWAPS; do
			sopts=
			[ "$sw" = zram ] || sopts="-z 0 -w $SWAP_MIB"
			groups+=("kbuild|{\"targets\":\"$targets\",\"jobs\":2,\"memcg_mib\":$KBUILD_MEMCG_MIB,\"swap\":\"$sw\"}||$ALL_ARMS|src=$src targets=$targets memcg=$KBUILD_MEMCG_MIB swap=$sw|$opts $sopts")
		done ;;
	aging)
		# a page per 2 MiB, then THPs (one per 64 MiB) over a quarter of the PUDs
		groups+=("aging|{\"sparse_gib\":$aging_sparse,\"thp\":0,\"hot_mib\":64,\"passes\":$aging_passes,\"bind_node\":0,\"age_node\":1}||mglru series pud-off|sparse_gib=$aging_sparse thp=0 hot_mib=64 passes=$aging_passes")
		groups+=("aging|{\"sparse_gib\":$((aging_sparse / 4)),\"thp\":1,\"hot_mib\":64,\"passes\":$aging_passes,\"bind_node\":0,\"age_node\":1}||mglru series pud-off|sparse_gib=$((aging_sparse / 4)) thp=1 hot_mib=64 passes=$aging_passes")
		# the same with 2 MiB on the aged node: its lruvec is not empty, so
		# the series walks it, and only the PUD filter saves the walk
		groups+=("aging|{\"sparse_gib\":$aging_sparse,\"thp\":0,\"hot_mib\":64,\"node_mib\":2,\"passes\":$aging_passes,\"bind_node\":0,\"age_node\":1}||mglru series pud-off|sparse_gib=$aging_sparse thp=0 hot_mib=64 node_mib=2 passes=$aging_passes")
		groups+=("aging|{\"sparse_gib\":$((aging_sparse / 4)),\"thp\":1,\"hot_mib\":64,\"node_mib\":2,\"passes\":$aging_passes,\"bind_node\":0,\"age_node\":1}||mglru series pud-off|sparse_gib=$((aging_sparse / 4)) thp=1 hot_mib=64 node_mib=2 passes=$aging_passes") ;;
	fgcost)
		groups+=("fgcost|{\"hot_mib\":$HOT_MIB,\"ops\":$fit_ops,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|ops=$fit_ops memcg=$MEMCG_MIB") ;;
	fgswitch)
		groups+=("fgswitch|{\"hot_mib\":$HOT_MIB,\"ops\":$((fit_ops / 4)),\"rounds\":20,\"memcg_mib\":$MEMCG_MIB}||series|ops=$((fit_ops / 4)) rounds=20 memcg=$MEMCG_MIB") ;;
	sqlite)
		# 4 rows of 900 bytes per 4 KiB page: one hot key per page of a
		# HOT_MIB share of the leaves, spread over the database
		rows=$((SQLITE_MIB * 1024)) keys=$((HOT_MIB * 256))
		groups+=("sqlite|{\"db_mib\":$SQLITE_MIB,\"hot_keys\":$keys,\"k\":2,\"stream_mib\":$STREAM_MIB,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|keys=$keys stride=$((rows / keys)) k=2 memcg=$MEMCG_MIB") ;;
	global)
		groups+=("global|{\"shape\":\"stream\",\"k\":4,\"hot_mib\":$HOT_MIB,\"stream_mib\":$STREAM_MIB,\"budget_mib\":$MEMCG_MIB}||$pc_arms|shape=stream k=4 budget_mib=$MEMCG_MIB")
		groups+=("global|{\"shape\":\"anon\",\"anon_mib\":$anon_mib,\"hot_mib\":$anon_hot,\"hot_pct\":90,\"ops\":$anon_ops,\"budget_mib\":$MEMCG_MIB,\"swap\":\"zram\"}||$pc_arms|shape=anon anon_mib=$anon_mib hot_mib=$anon_hot hot_pct=90 ops=$anon_ops budget_mib=$MEMCG_MIB") ;;
	probe)
		groups+=("probe|{\"kib\":64,\"interval_ms\":10,\"passes\":$PROBE_PASSES,\"stream_mib\":$STREAM_MIB,\"memcg_mib\":$MEMCG_MIB}||$pc_arms|kib=64 interval_ms=10 passes=$PROBE_PASSES memcg=$MEMCG_MIB") ;;
	jumps)
		groups+=("jumps|{\"k\":4,\"hot_mib\":$HOT_MIB,\"stream_mib\":$STREAM_MIB,\"memcg_mib\":$MEMCG_MIB}||mglru series fg-off|k=4 memcg=$MEMCG_MIB") ;;
	esac
done

# ---- kernels, guest files, data disk ---------------------------------------
if [ "$BENCH_BUILD" = 1 ]; then
	base_tree=$BUILD/base-tree
	if [ ! -e "$base_tree/.git" ]; then
		git -C "$TREE" worktree add -q --detach "$base_tree" base
	elif [ "$(git -C "$base_tree" rev-parse HEAD)" != "$(git -C "$TREE" rev-parse base)" ]; then
		git -C "$base_tree" checkout -q --detach base
	fi
	note "building the benchmark kernels (series tip, base); logs in $dir"
	"$TOP/scripts/kernel.sh" bench > "$dir/kernel-series.build.log" 2>&1 ||
		{ tail -30 "$dir/kernel-series.build.log"; die "series kernel build failed"; }
	TREE=$base_tree O=$BUILD/out-bench-base "$TOP/scripts/kernel.sh" bench \
		> "$dir/kernel-base.build.log" 2>&1 ||
		{ tail -30 "$dir/kernel-base.build.log"; die "base kernel build failed"; }
fi

guest=$BUILD/guest-bench
rm -rf "$guest/jobs"
mkdir -p "$guest/lib" "$guest/jobs"
"$TOP/scripts/lab-build.sh" "$guest"
find "$dir/jobs" -name "*.fio" -exec cp {} "$guest/jobs/" \;
# fio, GNU grep and sqlite_lookup (Debian's libsqlite3) run through the
# dynamic loader with copies of the host's shared libraries
cp -uL /usr/bin/fio /usr/bin/grep "$guest/"
ldd /usr/bin/fio /usr/bin/grep "$guest/sqlite_lookup" |
	awk '$3 ~ /^\// { print $3 } $1 ~ /^\// && $1 !~ /:$/ { print $1 }' |
	while read -r lib; do cp -uL "$lib" "$guest/lib/"; done
[ -f "$guest/lib/ld-linux-x86-64.so.2" ] || die "no dynamic loader in the ldd output"

if [ ! -f "$img" ]; then
	note "creating the data disk $img ($DISK_MIB MiB)"
	stage=$dir/stage
	rm -rf "$stage"
	mkdir -p "$stage/stream"
	fill() { head -c $(($2 << 20)) < <(yes "mglru lab: $1") > "$stage/$1"; }
	fill data.bin "$FILE_MIB"
	fill hot.bin "$HOT_MIB"
	fill hot2.bin "$HOT_MIB"
	for i in $(seq 0 $((STREAM_MIB / STREAM_FILE_MIB - 1))); do
		fill "$(printf 'stream/s%03d.bin' "$i")" "$STREAM_FILE_MIB"
	done
	# kv(id, v): 1024 rows of 900 bytes per MiB, 4 per 4 KiB page
	sqlite3 "$stage/lookup.db" "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF;
		CREATE TABLE kv(id INTEGER PRIMARY KEY, v BLOB);
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $((SQLITE_MIB * 1024)))
		INSERT INTO kv SELECT x, zeroblob(900) FROM c;" > /dev/null
	rm -f "$img.tmp"
	truncate -s "${DISK_MIB}M" "$img.tmp"
	E2FSPROGS_FAKE_TIME=1767225600 mkfs.ext4 -q -F -d "$stage" -U 6d676c72-752d-6c61-6200-000000000001 \
		-E root_owner=0:0,hash_seed=6d676c72-752d-6c61-6200-000000000002 "$img.tmp"
	mv "$img.tmp" "$img"
	rm -rf "$stage"
fi

# kbuild's tinyconfig reads the base tree from a disk image of it
if [ -n "$kbuild_img" ] && [ ! -f "$kbuild_img" ]; then
	[ -f "$kbuild_src/Makefile" ] || die "no base tree at $kbuild_src for $kbuild_img"
	note "creating the disk image of the base tree $kbuild_img"
	mib=$(du -sm --apparent-size "$kbuild_src" | cut -f1)
	rm -f "$kbuild_img.tmp"
	truncate -s $((mib + mib / 4 + 256))M "$kbuild_img.tmp"
	E2FSPROGS_FAKE_TIME=1767225600 mkfs.ext4 -q -F -d "$kbuild_src" -E root_owner=0:0 "$kbuild_img.tmp"
	mv "$kbuild_img.tmp" "$kbuild_img"
fi

# ---- one boot per cell -------------------------------------------------------
run_id=${RUN_ID:-$(date +%Y%m%d-%H%M%S)}
logdir=$dir/logs/$run_id
mkdir -p "$logdir"
# vm KERNEL_IMAGE 'VM-RUN OPTIONS' GUEST_ARGS...: one boot; guest log in
# $BUILD/logs/bench.guest.log.  The options come after the common ones, so
# that -z 0 overrides -z ZRAM_MIB.
vm() {
	local k=$1 opts=$2
	shift 2
	# shellcheck disable=SC2086 # opts: words of options
	"$TOP/scripts/vm-run.sh" -n bench -k "$k" -t "$CELL_TIMEOUT" -m "$MEM_MIB" -z "$ZRAM_MIB" \
		-D "$img" -f "$guest" ${BENCH_APPEND:+-a "$BENCH_APPEND"} $opts "$TOP/guest/bench.sh" "$@" > "$BUILD/logs/bench.vm-run.log" 2>&1
}

note "probing the kernels"
vm "$base_img" "" probe || die "the base kernel did not boot (see $BUILD/logs/bench.console.log)"
base_caps=$(sed -n 's/^### BENCH-PROBE enabled=\([^ ]*\).*/\1/p' "$BUILD/logs/bench.guest.log")
vm "$series_img" "" probe || die "the series kernel did not boot (see $BUILD/logs/bench.console.log)"
series_caps=$(sed -n 's/^### BENCH-PROBE enabled=\([^ ]*\).*/\1/p;T;q' "$BUILD/logs/bench.guest.log")
note "lru_gen/enabled at boot: base $base_caps, series $series_caps"
{ [ -n "$base_caps" ] && [ -n "$series_caps" ]; } || die "no lru_gen/enabled in a kernel"

# arm_setting ARM: "KERNEL ENABLED", or nothing if the kernel lacks the bit
arm_setting() {
	case $1 in
	classic) echo "base 0x0000" ;;
	mglru) echo "base 0x0007" ;;
	series) echo "series default" ;;
	fg-off) [ $((series_caps & 0x10)) = 0 ] || printf 'series 0x%04x\n' $((series_caps & ~0x10)) ;;
	pud-off) [ $((series_caps & 0x08)) = 0 ] || printf 'series 0x%04x\n' $((series_caps & ~0x08)) ;;
	esac
}
skipped=
cells=()
for g in "${groups[@]}"; do
	IFS='|' read -r w params trace arms args opts <<< "$g"
	# fgswitch switches bit 0x0010 of the series kernel
	if [ "$w" = fgswitch ] && [ $((series_caps & 0x10)) = 0 ]; then
		case " $skipped " in *" fgswitch "*) ;; *) skipped="$skipped fgswitch" ;; esac
		continue
	fi
	if [ -n "$PIN_NODE" ] && { [ "$w" = zipf ] || [ "$w" = uniform ]; }; then
		params="${params%\}},\"pin_node\":$PIN_NODE}" args="$args pin=$PIN_NODE"
	fi
	run_arms=
	for a in $arms; do
		case " $ARMS " in *" $a "*) ;; *) continue ;; esac
		if [ -z "$(arm_setting "$a")" ]; then
			case " $skipped " in *" $a "*) ;; *) skipped="$skipped $a" ;; esac
			continue
		fi
		run_arms="$run_arms $a"
	done
	for rep in $(seq 1 "$REPS"); do
		for a in $run_arms; do cells+=("$w|$params|$trace|$a|$rep|$args|$opts"); done
	done
done
for a in $skipped; do
	case $a in
	fgswitch) what="workload fgswitch" bit=0x0010 ;;
	fg-off) what="arm fg-off" bit=0x0010 ;;
	*) what="arm $a" bit=0x0008 ;;
	esac
	note "$what skipped: the series kernel ($series_caps) has no bit $bit on at boot"
done
[ ${#cells[@]} -gt 0 ] || die "no cell to run (WORKLOADS='$WORKLOADS', ARMS='$ARMS')"
note "run $run_id: ${#cells[@]} cells, logs in $logdir"
printf '%s\n' "${cells[@]}" > "$logdir/plan.txt"

results=$dir/results.jsonl
failed=0 n=0 t0=$(date +%s)
for c in "${cells[@]}"; do
	IFS='|' read -r w params trace a rep args opts <<< "$c"
	n=$((n + 1))
	read -r kernel caps <<< "$(arm_setting "$a")"
	k=$series_img
	[ "$kernel" = base ] && k=$base_img
	tag=$(printf '%03d-%s-%s-%s-r%d' "$n" "$w" "$(echo "$params" | tr -dc '0-9.,' | tr ',' '-')" "$a" "$rep")
	start=$(date +%s)
	# shellcheck disable=SC2086
	if vm "$k" "$opts" run "$w" "$caps" $args; then rc=0; else rc=$?; fi
	for f in guest console vm-run; do
		[ ! -f "$BUILD/logs/bench.$f.log" ] || mv "$BUILD/logs/bench.$f.log" "$logdir/$tag.$f.log"
	done
	rec=$(tr -d '\r' 2>/dev/null < "$logdir/$tag.guest.log" | sed -n 's/^### BENCH-RECORD {//p' | tail -1) || rec=
	line=
	if [ -n "$rec" ]; then
		[ -z "$trace" ] || rec="${rec%?},\"trace\":\"$trace\"}"
		[ -z "${BENCH_APPEND:-}" ] || rec="${rec%?},\"append\":\"$BENCH_APPEND\"}"
		line="{\"workload\":\"$w\",\"params\":$params,\"arm\":\"$a\",\"kernel\":\"$kernel\",\"rep\":$rep,\"run_id\":\"$run_id\",$rec"
		python3 -c 'import json, sys; json.loads(sys.argv[1])' "$line" 2>/dev/null || line=
	fi
	if [ "$rc" != 0 ] || [ -z "$line" ]; then
		failed=$((failed + 1))
		printf '== [%d/%d] %s: FAILED (exit %s%s), see %s\n' "$n" ${#cells[@]} "$tag" "$rc" \
			"$([ -n "$rec" ] && [ -z "$line" ] && echo ', bad record')" "$logdir/$tag.*.log"
		continue
	fi
	echo "$line" >> "$results"
	printf '== [%d/%d] %s: %d s  %s\n' "$n" ${#cells[@]} "$tag" $(($(date +%s) - start)) \
		"$(echo "$rec" | sed 's/.*"metrics":{//; s/}.*//' | cut -c1-110)"
done
note "run $run_id: $((${#cells[@]} - failed)) cells recorded in $results, $failed failed, $(($(date +%s) - t0)) s"

if [ "$failed" -lt ${#cells[@]} ] && [ -x "$TOP/scripts/report.sh" ]; then
	RUN_ID=$run_id "$TOP/scripts/report.sh" || note "report.sh failed"
fi
[ "$failed" = 0 ]
