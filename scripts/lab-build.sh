#!/bin/bash
# lab-build.sh OUTDIR: build the lab workloads (lab/*.c) as static binaries,
# each linked with the multi-gen LRU helper of the kselftests,
# $TREE/tools/testing/selftests/mm/lru_gen_util.c, built as the kselftests
# build it (-D_GNU_SOURCE=, kselftest.h from tools/testing/selftests, -Wall);
# the lab's own sources with -Wall -Wextra -Werror.  sqlite_lookup links
# Debian's libsqlite3 dynamically: the guest runs it with copies of the
# host's libraries (scripts/bench.sh), as fio.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"
[ $# = 1 ] || die "usage: lab-build.sh OUTDIR"
out=$1
selftests=$TREE/tools/testing/selftests
util=$selftests/mm/lru_gen_util.c
[ -f "$util" ] || die "no $util: the tree lacks the kselftests' lru_gen helper"
mkdir -p "$out"
obj=
for src in "$TOP"/lab/*.c; do
	bin=$out/$(basename "$src" .c)
	[ "$bin" -nt "$src" ] && [ "$bin" -nt "$TOP/lab/lrugen.h" ] &&
		[ "$bin" -nt "$util" ] && [ "$bin" -nt "${util%.c}.h" ] &&
		[ "$bin" -nt "$selftests/kselftest.h" ] && continue
	if [ -z "$obj" ]; then
		tmp=$(mktemp -d)
		trap 'rm -rf "$tmp"' EXIT
		obj=$tmp/lru_gen_util.o
		cc -O2 -Wall -D_GNU_SOURCE= -I "$selftests" -c -o "$obj" "$util"
	fi
	link=-static
	[ "$src" != "$TOP/lab/sqlite_lookup.c" ] || link=-lsqlite3
	cc -O2 -Wall -Wextra -Werror -I "$selftests" -I "$(dirname "$util")" -o "$bin" "$src" "$obj" $link
done
