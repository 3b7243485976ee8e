#!/bin/bash
# 'make run': set up, rebuild the tree, build the kernel and boot it in qemu
# to show the multi-gen LRU at work (guest/demo.sh).
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/setup.sh"
"$TOP/scripts/tree.sh"
note "building the test kernel (about 10 minutes from scratch with 2 cores)"
"$TOP/scripts/kernel.sh" test > "$BUILD/kernel-test.build.log" 2>&1 ||
	{ tail -30 "$BUILD/kernel-test.build.log"; die "kernel build failed"; }
"$TOP/scripts/lab-build.sh" "$BUILD/guest-run"
"$TOP/scripts/vm-run.sh" -n run -z 256 -d 256 -f "$BUILD/guest-run" "$TOP/guest/demo.sh" |
	grep -v '^### '
