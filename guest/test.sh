#!/bin/sh
# Guest side of 'make test': the interface smoke test, then the series'
# kselftests through run_vmtests.sh.  Each part prints one KTAP document
# between '### SECTION NAME' and '### SECTION end'; the host hands each to
# kunit.py parse (scripts/ktap.py).
set -u
rc=0
echo "### SECTION smoke"
sh /guest/smoke.sh || rc=1
echo "### SECTION end"
if [ -x /guest/mm/run_vmtests.sh ] && [ -s /guest/mm/categories ]; then
	echo "### SECTION kselftest"
	cd /guest/mm || exit 1
	# file-backed tests need a disk, not the initramfs or tmpfs
	if grep -q ' /mnt/scratch ' /proc/mounts; then
		export TMPDIR=/mnt/scratch
	fi
	# run_vmtests.sh exits 4 (ksft_skip) if any test skipped.
	st=0
	bash ./run_vmtests.sh -t "$(cat categories)" || st=$?
	echo "### SECTION end"
	[ "$st" = 0 ] || [ "$st" = 4 ] || rc=1
fi
exit $rc
