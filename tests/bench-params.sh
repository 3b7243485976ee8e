#!/bin/bash
# Host-side test of the parameter checks of 'make bench' (scripts/bench.sh),
# run by 'make test'; prints KTAP.  Each bad value must fail with a clear
# error naming the parameter before anything runs: in a scratch BUILD,
# nothing may be created (no tree, no kernels, no bench/ records).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
# shellcheck source=/dev/null # from the kernel tree
. "$TREE/tools/testing/selftests/kselftest/ktap_helpers.sh"

[ -e "$TREE/.git" ] || { echo "Bail out! no tree at $TREE: run 'make tree'"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-params.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# rejects VAR=VALUE PATTERN: bench.sh fails saying PATTERN, creates nothing
# (BENCH_BUILD=0: a value wrongly accepted fails soon after, on the missing
# kernels, instead of building them)
rejects() {
	local d="$1 is rejected and changes nothing"
	rm -rf "$tmp/build"
	if env BUILD="$tmp/build" BENCH_BUILD=0 "$1" "$TOP/scripts/bench.sh" > "$tmp/log" 2>&1; then
		sed 's/^/# /' "$tmp/log"
		ktap_test_fail "$d (accepted)"
	elif ! grep -q "error: .*$2" "$tmp/log"; then
		sed 's/^/# /' "$tmp/log"
		ktap_test_fail "$d (no error naming $2)"
	elif [ -e "$tmp/build" ]; then
		ktap_test_fail "$d (created $(find "$tmp/build" | head -3 | xargs))"
	else
		ktap_test_pass "$d"
	fi
}

cases=("PIN_NODE=2|PIN_NODE" "PIN_NODE=01|PIN_NODE" "PIN_NODE=x|PIN_NODE"
	"PIN_NODE=-1|PIN_NODE" "PIN_NODE= 1|PIN_NODE" "REPS=0|REPS"
	"KS=0|KS" "WORKLOADS=nope|WORKLOADS" "ARMS=nope|ARMS" "THETAS=x|THETAS"
	"KBUILD_SWAPS=nvme|KBUILD_SWAPS" "KBUILD_SWAPS=|KBUILD_SWAPS"
	"KBUILD_TARGETS=tinyconfig/net|KBUILD_TARGETS")
ktap_print_header
ktap_set_plan ${#cases[@]}
for c in "${cases[@]}"; do
	rejects "${c%%|*}" "${c#*|}"
done
ktap_finished
