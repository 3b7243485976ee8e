#!/bin/bash
# lab-build.sh OUTDIR: build the lab workloads (lab/*.c) as static binaries,
# each linked with the multi-gen LRU helpers of the kselftests,
# $TREE/tools/testing/selftests/mm/lru_gen_util.c.  sqlite_lookup links
# Debian's libsqlite3 dynamically: the guest runs it with copies of the
# host's libraries (scripts/bench.sh), as fio.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
[ $# = 1 ] || die "usage: lab-build.sh OUTDIR"
out=$1
util=$TREE/tools/testing/selftests/mm/lru_gen_util.c
[ -f "$util" ] || die "no $util: the tree lacks the series' selftest helpers"
mkdir -p "$out"
for src in "$TOP"/lab/*.c; do
	bin=$out/$(basename "$src" .c)
	[ "$bin" -nt "$src" ] && [ "$bin" -nt "$TOP/lab/lrugen.h" ] &&
		[ "$bin" -nt "$util" ] && [ "$bin" -nt "${util%.c}.h" ] && continue
	link=-static
	[ "$src" != "$TOP/lab/sqlite_lookup.c" ] || link=-lsqlite3
	cc -O2 -Wall -Wextra -Werror -I "$(dirname "$util")" -o "$bin" "$src" "$util" $link
done
