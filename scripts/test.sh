#!/bin/bash
# 'make test': set up, rebuild the tree, build the debug test kernel, and in
# one VM run the built-in KUnit tests, the series' kselftests and the
# interface smoke test; in a second one, 2 minutes of the stress and fuzz
# run of 'make stress' on the same kernel; check the series with checkpatch;
# run the host-side tests.  Every check prints KTAP and kunit.py parses every stream
# (scripts/ktap.py); the last line counts test cases:
# 'N passed, N failed, N skipped'.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

phase_start=$(date +%s)
phase() { # phase NAME: print how long the previous phase took
	local now
	now=$(date +%s)
	[ -z "${cur:-}" ] || printf '== phase %-10s %4d s\n' "$cur" $((now - phase_start))
	cur=$1 phase_start=$now
	[ "$1" = "done" ] || note "$1"
}

logs=$BUILD/logs
ktap=$logs/ktap
rm -rf "$ktap"
mkdir -p "$ktap"

phase setup
"$TOP/scripts/setup.sh"
phase tree
"$TOP/scripts/tree.sh"
phase kernel
"$TOP/scripts/kernel.sh" test > "$logs/kernel-test.build.log" 2>&1 ||
	{ tail -30 "$logs/kernel-test.build.log"; die "kernel build failed"; }
phase selftests
guestdir=$BUILD/guest-test
"$TOP/scripts/selftests.sh" "$guestdir/mm"
"$TOP/scripts/lab-build.sh" "$guestdir"
cp "$TOP/guest/smoke.sh" "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh" "$guestdir/"

phase vm
vmrc=0
"$TOP/scripts/vm-run.sh" -n test -z 256 -d 512 -f "$guestdir" "$TOP/guest/test.sh" || vmrc=$?
{
	echo "KTAP version 1"
	echo "1..1"
	if [ "$vmrc" = 0 ]; then
		echo "ok 1 vm_run"
	else
		echo "# see $logs/test.console.log"
		echo "not ok 1 vm_run # exit $vmrc"
	fi
} > "$ktap/vm.ktap"
python3 "$TOP/scripts/ktap.py" split "$logs/test.guest.log" "$ktap"

phase stress
# its KTAP goes into the report below; its own report into the log
STRESS_S=${TEST_STRESS_S:-120} STRESS_KERNEL=test "$TOP/scripts/stress.sh" \
	> "$logs/stress.log" 2>&1 || true

phase checkpatch
"$TOP/scripts/checkpatch.sh" > "$ktap/checkpatch.ktap" || true

phase host-tests
host=
for t in "$TOP"/tests/*.sh; do
	[ -e "$t" ] || break
	n=${t##*/}
	n=${n%.sh}
	"$t" > "$ktap/host-$n.ktap" 2> "$logs/host-$n.log" || true
	host="$host host-$n=$ktap/host-$n.ktap"
done

phase "done"
echo "== results (kunit.py parse of every stream; JSON in $ktap)"
# shellcheck disable=SC2086 # $host is a list of NAME=FILE words
python3 "$TOP/scripts/ktap.py" report --kunit "$TREE/tools/testing/kunit/kunit.py" \
	--json-dir "$ktap" vm="$ktap/vm.ktap" kunit="$logs/test.console.log" \
	smoke="$ktap/smoke.ktap" kselftest="$ktap/kselftest.ktap" \
	stress="$BUILD/stress/stress.ktap" stress_vm="$BUILD/stress/vm.ktap" \
	checkpatch="$ktap/checkpatch.ktap" $host
