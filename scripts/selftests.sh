#!/bin/bash
# selftests.sh OUTDIR: build the kselftests that the series adds under
# tools/testing/selftests/mm (static, so they run from the busybox
# initramfs) and copy run_vmtests.sh beside them.  OUTDIR/categories lists
# the run_vmtests.sh categories that run them.
set -eu
. "$(dirname "$0")/lib.sh"

out=$(realpath -m "$1")
hdr=${HDR:-$BUILD/out-test/usr/include}
rm -rf "$out"
mkdir -p "$out"
cd "$TREE"
mm=tools/testing/selftests/mm
srcs=$(git diff --name-only --diff-filter=A base..HEAD -- "$mm/*.c")
: > "$out/categories"
[ -n "$srcs" ] || { note "the series adds no kselftests"; exit 0; }
[ -d "$hdr" ] || die "no kernel headers at $hdr: run 'make kernel'"
for src in $srcs; do
	bin=$(basename "$src" .c)
	note "building kselftest $bin"
	cc -static -O2 -Wall -Werror -isystem "$hdr" -I tools/testing/selftests -I "$mm" \
		-o "$out/$bin" "$src" -lm
	# The category under which run_vmtests.sh runs this binary.
	cat=$(sed -n "s|^CATEGORY=\"\([a-z_]*\)\" run_test \./$bin\b.*|\1|p" "$mm/run_vmtests.sh" | head -1)
	[ -n "$cat" ] || die "$bin is not registered in $mm/run_vmtests.sh"
	grep -qx "$cat" "$out/categories" || echo "$cat" >> "$out/categories"
done
cp "$mm/run_vmtests.sh" "$out/"
tr '\n' ' ' < "$out/categories" > "$out/categories.tmp" && mv "$out/categories.tmp" "$out/categories"
