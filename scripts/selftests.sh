#!/bin/bash
# selftests.sh OUTDIR: build the mm kselftests through the kselftest Makefile
# (make -C tools/testing/selftests TARGETS=mm, static, so that they run from
# the busybox initramfs), then copy the tests that the series adds, their
# run_vmtests.sh and OUTDIR/categories (the run_vmtests.sh categories that
# run them) to OUTDIR.  Every mm target must build, except those listed in
# configs/kselftest-broken with the reason.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# = 1 ] || die "usage: selftests.sh OUTDIR"
out=$(realpath -m "$1")
hdr=$(realpath -m "${HDR:-$BUILD/out-test/usr/include}")
kst=${KSELFTEST_OUT:-$BUILD/kselftest}
[ -d "$hdr" ] || die "no kernel headers at $hdr: run 'make kernel'"
rm -rf "$out"
mkdir -p "$out" "$kst"
cd "$TREE"
mm=tools/testing/selftests/mm

# The programs the series adds: the C files added under mm/ that
# run_vmtests.sh runs (a helper linked into them is not one).
tests=
for src in $(git diff --name-only --diff-filter=A base..HEAD -- "$mm/*.c"); do
	bin=$(basename "$src" .c)
	grep -q "run_test \./$bin\b" "$mm/run_vmtests.sh" && tests="$tests $bin"
done
: > "$out/categories"
[ -n "$tests" ] || { note "the series adds no kselftests"; exit 0; }

for bin in $tests; do rm -f "$kst/kselftest/mm/$bin"; done
note "building the mm kselftests (make -C tools/testing/selftests TARGETS=mm)"
log=$BUILD/logs/kselftest-build.log
mkdir -p "${log%/*}"
make -k -C tools/testing/selftests TARGETS=mm O="$kst" -j"$JOBS" \
	KHDR_INCLUDES="-isystem $hdr" LDFLAGS=-static > "$log" 2>&1 || true
broken=$(sed -n 's|.*/kselftest/mm/\([^]/]*\)\] Error [0-9]*$|\1|p' "$log" | sort -u)
known=$(sed -n 's/^\([a-z0-9_-]*\) .*/\1/p' "$TOP/configs/kselftest-broken" | sort -u)
unexpected=$(comm -23 <(echo "$broken") <(echo "$known") | xargs)
[ -z "$unexpected" ] || { grep -E 'error|Error' "$log" | head -20; die "kselftests failed to build: $unexpected (see $log)"; }

for bin in $tests; do
	[ -x "$kst/kselftest/mm/$bin" ] || die "$bin was not built (see $log)"
	cp "$kst/kselftest/mm/$bin" "$out/"
	# the category under which run_vmtests.sh runs this binary
	cat=$(sed -n "s|^CATEGORY=\"\([a-z_]*\)\" run_test \./$bin\b.*|\1|p" "$mm/run_vmtests.sh" | head -1)
	[ -n "$cat" ] || die "$bin is not registered in $mm/run_vmtests.sh"
	grep -qx "$cat" "$out/categories" || echo "$cat" >> "$out/categories"
done
cp "$mm/run_vmtests.sh" "$out/"
tr '\n' ' ' < "$out/categories" > "$out/categories.tmp" && mv "$out/categories.tmp" "$out/categories"
note "kselftests:$tests (categories: $(cat "$out/categories"))"
