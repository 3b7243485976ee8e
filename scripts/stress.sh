#!/bin/bash
# 'make stress': the stress and fault run.  Builds the stress kernel (the
# debug kernel plus KASAN, DEBUG_LIST, DEBUG_PAGEALLOC and PAGE_OWNER,
# configs/stress.config), boots it with debug_pagealloc=on and
# page_owner=on, runs guest/stress.sh for STRESS_S seconds (default 1800)
# and checks its KTAP and the kernel log: any splat, KASAN report, list
# corruption, bad page, hung task or lockup fails the run.
#   STRESS_S=N         seconds of stress (at least 30)
#   STRESS_KERNEL=test the debug test kernel of 'make test' instead, which
#                      'make test' uses for its short run
# Writes $BUILD/stress/{stress,vm}.ktap and summary.json, and reports them
# through scripts/ktap.py.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

secs=${STRESS_S:-1800}
case $secs in '' | *[!0-9]*) die "STRESS_S=$secs: not a number of seconds" ;; esac
[ "$secs" -ge 30 ] || die "STRESS_S=$secs: at least 30"
variant=${STRESS_KERNEL:-stress}
case $variant in stress | test) ;; *) die "STRESS_KERNEL=$variant: stress or test" ;; esac
out=$BUILD/stress
mkdir -p "$out" "$BUILD/logs"
rm -f "$out"/*.ktap "$out/summary.json"

if [ "$variant" = stress ]; then
	note "building the stress kernel (build/out-stress)"
	"$TOP/scripts/kernel.sh" stress > "$BUILD/logs/kernel-stress.build.log" 2>&1 ||
		{ tail -30 "$BUILD/logs/kernel-stress.build.log"; die "stress kernel build failed"; }
fi
kernel=$BUILD/out-$variant/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no $kernel: run 'make kernel'"

guest=$BUILD/guest-stress
rm -rf "$guest"
mkdir -p "$guest"
"$TOP/scripts/lab-build.sh" "$guest"
cp "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh" "$guest/"

note "stress: $secs s on $variant kernel"
rc=0
"$TOP/scripts/vm-run.sh" -k "$kernel" -n stress -t $((secs * 2 + 600)) -m 2048 -z 512 -d 1024 \
	-a "debug_pagealloc=on page_owner=on" -f "$guest" "$TOP/guest/stress.sh" "$secs" \
	"$([ "$variant" = test ] || echo kasan)" ||
	rc=$?
log=$BUILD/logs/stress.guest.log
sed -n '/^TAP version/,/^# Totals:/p' "$log" > "$out/stress.ktap"
sed -n 's/^### STRESS-SUMMARY //p' "$log" | tail -1 > "$out/summary.json.tmp"
if [ -s "$out/summary.json.tmp" ]; then
	python3 -c 'import json, sys; json.dump(dict(json.load(open(sys.argv[1])), kernel=sys.argv[2], vm_exit=int(sys.argv[3])), open(sys.argv[4], "w"))' \
		"$out/summary.json.tmp" "$variant" "$rc" "$out/summary.json"
fi
rm -f "$out/summary.json.tmp"
{
	echo "KTAP version 1"
	echo "1..1"
	if [ "$rc" = 0 ]; then
		echo "ok 1 stress_vm_run"
	else
		echo "# see $BUILD/logs/stress.console.log"
		echo "not ok 1 stress_vm_run # exit $rc"
	fi
} > "$out/vm.ktap"
[ ! -f "$out/summary.json" ] || note "summary: $(cat "$out/summary.json")"
python3 "$TOP/scripts/ktap.py" report --kunit "$TREE/tools/testing/kunit/kunit.py" \
	--json-dir "$out" stress="$out/stress.ktap" stress_vm="$out/vm.ktap"
