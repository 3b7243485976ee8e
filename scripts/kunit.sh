#!/bin/bash
# 'make kunit': the series' KUnit suite the way a reviewer runs it first,
# 'kunit.py run --kunitconfig=mm/tests', in its own build directory.  The
# default architecture is UML, where the page table walker does not exist
# (no ARCH_HAS_HW_PTE_YOUNG) and THP cases skip; KUNIT_ARCH=x86_64 runs
# the same suite in qemu.  'make test' runs it in the x86_64 test kernel.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${KUNIT_ARCH:-um}
case $arch in um | x86_64) ;; *) die "KUNIT_ARCH=$arch: use um or x86_64" ;; esac
cd "$TREE"
python3 tools/testing/kunit/kunit.py run --kunitconfig=mm/tests --arch="$arch" \
	--build_dir="$BUILD/kunit-$arch" --jobs="$JOBS"
