#!/bin/bash
# lab-build.sh OUTDIR: build the lab workloads (lab/*.c) as static binaries.
set -eu
. "$(dirname "$0")/lib.sh"
out=$1
mkdir -p "$out"
for src in "$TOP"/lab/*.c; do
	bin=$out/$(basename "$src" .c)
	[ "$bin" -nt "$src" ] && [ "$bin" -nt "$TOP/lab/lrugen.h" ] && continue
	cc -static -O2 -Wall -Wextra -Werror -o "$bin" "$src"
done
