#!/bin/bash
# 'make test': set up, rebuild the tree, build the debug test kernel, and in
# one VM run the built-in KUnit tests, the series' kselftests and the
# interface smoke test; check the series with checkpatch; run the host-side
# tests.  Ends with one 'N passed, N failed' line.
set -eu
. "$(dirname "$0")/lib.sh"

pass=0 fail=0
count() { # count FILE: add up TAP 'ok' / 'not ok' lines (skips are passes)
	local p f
	p=$(grep -cE '^(# )?ok( |$)' "$1" || true)
	f=$(grep -cE '^(# )?not ok( |$)' "$1" || true)
	pass=$((pass + p))
	fail=$((fail + f))
	echo "   $p passed, $f failed"
}
phase_start=$(date +%s)
phase() { # phase NAME: print how long the previous phase took
	local now
	now=$(date +%s)
	[ -z "${cur:-}" ] || printf '== phase %-10s %4d s\n' "$cur" $((now - phase_start))
	cur=$1 phase_start=$now
	[ "$1" = done ] || note "$1"
}

logs=$BUILD/logs
mkdir -p "$logs"

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
cp "$TOP/guest/smoke.sh" "$guestdir/"

phase vm
set +e
"$TOP/scripts/vm-run.sh" -n test -z 256 -d 512 -f "$guestdir" "$TOP/guest/test.sh"
vmrc=$?
set -e
echo "-- VM run (splats, timeout, guest exit status)"
if [ "$vmrc" = 0 ]; then
	echo "ok - VM run clean" | tee "$logs/test.vm.tap"
else
	echo "not ok - VM run: exit $vmrc (see $logs/test.console.log)" | tee "$logs/test.vm.tap"
fi
count "$logs/test.vm.tap"
echo "-- KUnit (built in, run at boot)"
if python3 "$TREE/tools/testing/kunit/kunit.py" parse "$logs/test.console.log" > "$logs/test.kunit.txt" 2>&1; then
	kunit_rc=0
else
	kunit_rc=1
fi
# Unparseable or missing KTAP is a failure, not zero tests.
sed -n 's/.*\] //; /Testing complete\|FAILED\|CRASHED\|ERROR/p' "$logs/test.kunit.txt"
kp=$(sed -n 's/.*Testing complete. Ran [0-9]* tests: passed: \([0-9]*\).*/\1/p' "$logs/test.kunit.txt")
kp=${kp:-0}
kf=$(sed -n 's/.*Testing complete. Ran [0-9]* tests:.* failed: \([0-9]*\).*/\1/p' "$logs/test.kunit.txt")
kf=${kf:-0}
# A parse error, a crash or no test at all counts as one failure.
[ "$kunit_rc" = 0 ] && [ "$kp" -gt 0 ] || [ "$kf" -gt 0 ] || kf=1
echo "   $kp passed, $kf failed"
pass=$((pass + kp)) fail=$((fail + kf))
echo "-- interface smoke test and kselftests (guest)"
count "$logs/test.guest.log"

phase checkpatch
"$TOP/scripts/checkpatch.sh" > "$logs/test.checkpatch.tap" || true
cat "$logs/test.checkpatch.tap"
count "$logs/test.checkpatch.tap"

phase host-tests
for t in "$TOP"/tests/*.sh; do
	[ -e "$t" ] || break
	if "$t" > "$logs/host-${t##*/}.log" 2>&1; then r="ok"; else r="not ok"; fi
	echo "$r - ${t##*/}" | tee -a "$logs/test.host.tap"
done
[ ! -f "$logs/test.host.tap" ] || { count "$logs/test.host.tap"; rm -f "$logs/test.host.tap"; }
phase done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
