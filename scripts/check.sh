#!/bin/bash
# 'make check': shellcheck on every shell script of the project (clean, or
# a reason at each disable), then the host-side tests (tests/*.sh); KTAP
# through scripts/ktap.py like 'make test', ending with
# 'N passed, N failed, N skipped'.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$BUILD/logs/check
rm -rf "$out"
mkdir -p "$out"
cd "$TOP"
scripts=$(git ls-files '*.sh' .ci/run | sort)
{
	echo "KTAP version 1"
	echo "1..$(echo "$scripts" | wc -l)"
	n=0
	for f in $scripts; do
		n=$((n + 1))
		if msg=$(shellcheck -x -P SCRIPTDIR "$f" 2>&1); then
			echo "ok $n shellcheck $f"
		else
			printf '# %s\n' "${msg//$'\n'/$'\n'# }"
			echo "not ok $n shellcheck $f"
		fi
	done
} > "$out/shellcheck.ktap"
streams="shellcheck=$out/shellcheck.ktap"
for t in tests/*.sh; do
	n=${t##*/}
	n=${n%.sh}
	"$t" > "$out/host-$n.ktap" 2> "$out/host-$n.log" || true
	streams="$streams host-$n=$out/host-$n.ktap"
done
# shellcheck disable=SC2086 # a list of NAME=FILE words
python3 scripts/ktap.py report --kunit "$TREE/tools/testing/kunit/kunit.py" --json-dir "$out" $streams
